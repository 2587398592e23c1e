import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { apiAs, PHONE, phoneOverflow, signIn } from './helpers';

/** Issue 13, item 3 and 8: sortable columns, bulk actions on the documents list, a client created from the editor. */

test('the documents list sorts by a column, selects rows, exports and acts on them', async ({ page }) => {
  await signIn(page);
  const api = apiAs(page);
  const contact = await api('/v1/contacts', { type: 'professionnel', company: 'Tri Groupé SARL', email: 'compta@tri-groupe.test', siret: '73282932000074' });
  const draft = (cents: number) =>
    api('/v1/invoices', { type: 'facture', contact_id: contact.id, operation_nature: 'services', items: [{ description: 'Audit', quantity: '1', unit_price: cents, vat_rate: '20' }] });
  await draft(10_000);
  await draft(30_000);
  const issued = await draft(20_000);
  await api(`/v1/invoices/${issued.id}/finalize`, {});

  await page.goto('/documents?q=Tri+Group%C3%A9');
  const list = page.getByRole('table', { name: 'Documents' });
  await expect(list.locator('tbody tr')).toHaveCount(3);
  // Largest first on the first click of an amount; the filter stays.
  await list.getByRole('link', { name: /^Total TTC/ }).click();
  await expect(page).toHaveURL(/q=Tri.*sort=total_ttc&dir=desc/);
  await expect(list.getByRole('columnheader', { name: /^Total TTC/ })).toHaveAttribute('aria-sort', 'descending');
  await expect(list.locator('tbody tr').first()).toContainText('360,00');
  await list.getByRole('link', { name: /^Total TTC/ }).click();
  await expect(list.getByRole('columnheader', { name: /^Total TTC/ })).toHaveAttribute('aria-sort', 'ascending');
  await expect(list.locator('tbody tr').first()).toContainText('120,00');

  // Every row, then Supprimer: the drafts go, the finalized invoice is reported.
  await list.getByRole('checkbox', { name: 'Tout sélectionner' }).check();
  const bulk = page.getByRole('form', { name: 'Actions sur la sélection' });
  await expect(bulk).toContainText('3 sélectionnés');
  // Exporter: the CSV of the checked documents only.
  const download = page.waitForEvent('download');
  await bulk.getByRole('button', { name: 'Exporter' }).click();
  const csv = await readFile((await (await download).path())!, 'utf8');
  expect(csv.replace(/^\uFEFF/, '').trim().split('\r\n')).toHaveLength(4);

  page.once('dialog', (dialog) => dialog.accept());
  await bulk.getByRole('button', { name: 'Supprimer' }).click();
  await expect(bulk.getByRole('status').last()).toContainText('2 documents supprimés, 1 ignoré (pas un brouillon).');
  await expect(list.locator('tbody tr')).toHaveCount(1);
});

test.describe('on a phone', () => {
  test.use({ viewport: PHONE, isMobile: true, hasTouch: true });

  test('the sorted lists and the bulk bar fit the screen (tables scroll inside themselves)', async ({ page }) => {
    await signIn(page);
    for (const path of ['/documents?sort=client&dir=asc', '/contacts?sort=city&dir=desc', '/products?sort=price&dir=desc']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 }), path).toBeVisible();
      const sticking = await phoneOverflow(page);
      expect(sticking, `${path} is wider than the phone`).toEqual({ by: 0, wider: [] });
    }
    await page.goto('/documents');
    await expect(page.getByRole('form', { name: 'Actions sur la sélection' }).getByRole('button', { name: 'Envoyer' })).toBeVisible();
  });
});

test('the editor creates the client typed when none matches, and keeps the draft’s lines', async ({ page }) => {
  await signIn(page);
  await page.goto('/documents/new?type=facture');
  await page.getByLabel('Désignation de la ligne 1').fill('Conseil en organisation');
  const picker = page.getByRole('combobox', { name: 'Client' });
  await picker.fill('Atelier Inline SARL');
  await page.getByRole('option', { name: 'Créer « Atelier Inline SARL »' }).click();
  const form = page.getByRole('group', { name: 'Nouveau client' });
  await form.getByLabel('E-mail').fill('pas-une-adresse');
  await form.getByRole('button', { name: 'Créer et choisir ce client' }).click();
  await expect(form.getByText(/adresse e-mail/i)).toBeVisible();
  await form.getByLabel('E-mail').fill('compta@atelier-inline.test');
  await form.getByRole('button', { name: 'Créer et choisir ce client' }).click();
  await expect(page.getByTestId('editor-contact')).toHaveText('Atelier Inline SARL');
  await expect(page.getByLabel('Désignation de la ligne 1')).toHaveValue('Conseil en organisation');
});
