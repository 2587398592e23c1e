import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { apiAs, PHONE, signIn } from './helpers';

/*
 * Issue 35, item 16: a finalized document's hashes are proof, not information — folded in « Intégrité » (closed), with
 * what they prove in French and « Vérifier la chaîne » beside them; the number and the date of finalization stay shown.
 */

async function axeClean(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

for (const viewport of [{ width: 1440, height: 900 }, PHONE]) {
  test(`at ${viewport.width} px the document's hashes wait in a closed « Intégrité », which explains and verifies them`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await signIn(page);
    const api = apiAs(page);
    const contact = await api('/v1/contacts', { type: 'professionnel', company: 'Chaîne Scellée SAS', email: 'compta@chaine.test', siret: '73282932000074' });
    const draft = await api('/v1/invoices', {
      type: 'facture',
      contact_id: contact.id,
      operation_nature: 'services',
      items: [{ description: 'Audit', quantity: '1', unit_price: 50_000, vat_rate: '20' }],
    });
    await api(`/v1/invoices/${draft.id}/finalize`, {});
    const doc = (await (await page.request.get(`/v1/invoices/${draft.id}`)).json()) as { number: string; content_hash: string };
    expect(doc.content_hash).toMatch(/^[0-9a-f]{64}$/);

    await page.goto(`/documents/${draft.id}`);
    const card = page.getByRole('region', { name: 'Intégrité' });
    await expect(card.getByTestId('document-number')).toHaveText(doc.number);
    // Closed: no digest on the page until asked for.
    const digest = card.locator('code.hash').first();
    await expect(digest).toBeHidden();
    await expect(card.locator('details')).not.toHaveAttribute('open');
    await expect(page.getByRole('button', { name: 'Vérifier la chaîne' })).toBeHidden();
    await axeClean(page);

    await card.getByText('Intégrité', { exact: true }).click();
    await expect(digest).toBeVisible();
    await expect(digest).toHaveText(doc.content_hash);
    await expect(card).toContainText('Toute modification après coup, de ce document ou d’un précédent, rompt la chaîne');
    await card.getByRole('button', { name: 'Vérifier la chaîne' }).click();
    await expect(card.getByRole('status')).toContainText('Chaîne vérifiée');
    await axeClean(page);
  });
}
