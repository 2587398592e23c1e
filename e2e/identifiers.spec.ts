import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { apiAs, signIn } from './helpers';

test('a SIRET with a wrong key is refused where it is typed, in French; a right one is saved', async ({ page }) => {
  await signIn(page);
  await page.goto('/contacts/new');
  await page.getByLabel('Société').fill('Clé Fausse SARL');
  await page.getByLabel('SIRET').fill('73282932000075');
  await page.getByRole('button', { name: /Créer|Enregistrer/ }).click();
  await expect(page.getByText('Ce SIRET n’existe pas : sa clé de contrôle est fausse')).toBeVisible();
  await expect(page).toHaveURL(/\/contacts\/new$/);

  await page.getByLabel('SIRET').fill('73282932000074');
  await page.getByRole('button', { name: /Créer|Enregistrer/ }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Clé Fausse SARL');
  // The client's account: nothing billed yet, and a quote or an invoice started for them.
  const account = page.getByRole('region', { name: 'Compte client' });
  await expect(account).toContainText('Aucun devis ni facture pour ce client.');
  await account.getByRole('link', { name: 'Nouvelle facture pour ce client' }).click();
  await expect(page).toHaveURL(/\/documents\/new\?type=facture&contact_id=[0-9a-f-]{36}$/);
});

test('the documents list totals the filtered set and exports it as CSV', async ({ page }) => {
  await signIn(page);
  const api = apiAs(page);
  const contact = await api('/v1/contacts', { type: 'professionnel', company: 'Export CSV SARL', siret: '73282932000074', email: 'compta@export-csv.test' });
  await api('/v1/invoices', { type: 'facture', contact_id: contact.id, operation_nature: 'services', items: [{ description: 'Audit', quantity: '1', unit_price: 50000, vat_rate: '20' }] });
  // The client's page lists it, with what is still owed.
  await page.goto(`/contacts/${contact.id}`);
  const account = page.getByRole('region', { name: 'Compte client' });
  await expect(account.getByRole('table', { name: 'Documents du client' })).toContainText('Facture');
  await expect(account.getByTestId('client-account')).toContainText('Reste dû');

  await page.goto('/documents?type=facture');
  const footer = page.locator('table[aria-label="Documents"] tfoot');
  await expect(footer).toContainText(/\d+ factures? et avoirs? filtrés, avoirs déduits/);

  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Exporter en CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^documents-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = await readFile((await file.path())!, 'utf8');
  const [header, ...rows] = csv.replace(/^\uFEFF/, '').trim().split('\r\n');
  expect(header).toBe('Numéro;Type;Statut;Client;Émis le;Échéance / validité;Objet;Total HT;TVA;Total TTC;Payé;Reste dû');
  // What the list shows with this filter: invoices only.
  expect(rows.length).toBeGreaterThan(0);
  for (const row of rows) expect(row.split(';')[1]).toBe('Facture');
});
