import { expect, type Page, test } from '@playwright/test';
import { signIn } from './helpers';

const menu = (page: Page, name: string) => page.getByRole('navigation', { name: 'Activité' }).getByRole('link', { name });

test('settings → send an invoice by e-mail → its ladder → a manual reminder, deleted → "À relancer"', async ({ page }) => {
  await signIn(page);

  // The ladders in the invoice settings.
  await page.goto('/settings/invoicing');
  const ladder = page.getByLabel('Relances de paiement (jours par rapport à l’échéance)');
  await expect(ladder).toHaveValue('-3, 1, 7, 15, 30');
  await ladder.fill('-3, 1, 7, 15, 30, 45');
  await page.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(page.getByText('Réglages de facturation enregistrés.')).toBeVisible();
  await expect(page.getByLabel('Relances de paiement (jours par rapport à l’échéance)')).toHaveValue('-3, 1, 7, 15, 30, 45');

  // An invoice issued through the API (the staff session acts with every scope).
  const contact = await page.request.post('/v1/contacts', {
    data: { type: 'professionnel', company: 'Menuiserie Lebois', siret: '73282932000074', email: 'compta@lebois.test', city: 'Nantes' },
  });
  expect(contact.status()).toBe(201);
  const draft = await page.request.post('/v1/invoices', {
    data: {
      type: 'facture',
      contact_id: (await contact.json()).id,
      payment_terms: '30 jours',
      operation_nature: 'mixte',
      items: [{ description: 'Escalier chêne', quantity: '1', unit_price: 250000, vat_rate: '20' }],
    },
  });
  expect(draft.status()).toBe(201);
  const { id } = await draft.json();
  const finalized = await page.request.post(`/v1/invoices/${id}/finalize`);
  expect(finalized.status()).toBe(200);
  const { number } = await finalized.json();

  await page.goto(`/documents/${id}`);
  const ladderRegion = page.getByRole('region', { name: 'Relances de paiement' });
  await expect(ladderRegion).toContainText('programmées au premier envoi');

  // Send it, with a copy.
  await page.getByRole('button', { name: 'Envoyer par e-mail…' }).click();
  const dialog = page.getByRole('dialog', { name: `Envoyer la facture ${number}` });
  await expect(dialog.getByText('Vide : compta@lebois.test.')).toBeVisible();
  await dialog.getByLabel('Copie à').fill('associe@lebois.test, pas une adresse');
  await dialog.getByRole('button', { name: 'Envoyer', exact: true }).click();
  await expect(dialog.getByText(/adresse e-mail invalide \(ex\. nom@exemple\.fr\)/i).first()).toBeVisible();
  await dialog.getByLabel('Copie à').fill('associe@lebois.test');
  await dialog.getByLabel('Message').fill('Merci pour votre confiance.');
  // The e-mail as the client will read it, before sending.
  await dialog.getByRole('button', { name: 'Aperçu de l’e-mail' }).click();
  const preview = dialog.getByRole('region', { name: 'Aperçu de l’e-mail' });
  await expect(preview).toContainText('compta@lebois.test, associe@lebois.test');
  await expect(preview).toContainText(number);
  await expect(preview).toContainText('Merci pour votre confiance.');
  await dialog.getByRole('button', { name: 'Envoyer', exact: true }).click();
  await expect(page.getByText('Document envoyé. 6 relances programmées.')).toBeVisible();
  await expect(page.getByTestId('document-status')).toHaveText('envoyé');

  const steps = ladderRegion.getByRole('table', { name: 'Échelle de relance' }).getByRole('row');
  await expect(steps).toHaveCount(7);
  await expect(steps.nth(1)).toContainText('3 jours avant l’échéance');
  await expect(steps.nth(1)).toContainText('courtois');
  await expect(steps.nth(6)).toContainText('45 jours après l’échéance');
  await expect(steps.nth(6)).toContainText('dernier rappel');
  // The mail log shows the e-mail with its copy.
  await expect(page.getByRole('region', { name: 'E-mails envoyés' })).toContainText('cc associe@lebois.test');

  // A manual reminder, then deleted.
  const when = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
  await ladderRegion.getByLabel('Quand (heure de Paris)').fill(`${when}T14:30`);
  await ladderRegion.getByLabel('Ton').selectOption('firm');
  await ladderRegion.getByLabel('Message (facultatif)').fill('Suite à notre appel.');
  await ladderRegion.getByRole('button', { name: 'Programmer la relance' }).click();
  await expect(ladderRegion.getByText('Relance programmée.')).toBeVisible();
  const manual = ladderRegion.getByRole('row', { name: /Relance manuelle/ });
  await expect(manual).toContainText('14:30');
  await expect(manual).toContainText('« Suite à notre appel. »');
  await manual.getByRole('button', { name: 'Supprimer' }).click();
  await expect(manual).toContainText('annulée');

  // "À relancer".
  await menu(page, 'Relances').click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('À relancer');
  const row = page.getByRole('row', { name: new RegExp(number) });
  await expect(row).toContainText('Menuiserie Lebois');
  await expect(row).toContainText('0 envoyée, 6 programmées');
  // Acting from the list: the client's page, a payment on the document, a reminder now.
  await expect(row.getByRole('link', { name: 'Menuiserie Lebois' })).toHaveAttribute('href', /^\/contacts\/[0-9a-f-]{36}$/);
  await expect(row.getByRole('link', { name: 'Encaisser' })).toHaveAttribute('href', /#paiements$/);
  await row.getByRole('button', { name: `Relancer maintenant la facture ${number}` }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Relance programmée : elle part dans la minute.' })).toBeVisible();
  await row.getByRole('link', { name: number }).click();
  await expect(page.getByTestId('document-number')).toHaveText(number);
});
