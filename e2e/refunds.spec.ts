import { expect, test } from '@playwright/test';
import { apiAs, PHONE, phoneOverflow, signIn } from './helpers';

let refunded: { invoice: string; creditNote: string } | undefined;

test('a paid invoice credited by 24,00 € is refunded from its page; the credit note lists the refund; the books balance', async ({ page }) => {
  await signIn(page);
  const api = apiAs(page);
  const contact = await api('/v1/contacts', { type: 'professionnel', company: 'Remboursé SARL', siret: '73282932000074', email: 'compta@rembourse.test' });
  const invoice = await api('/v1/invoices', {
    type: 'facture',
    contact_id: contact.id,
    operation_nature: 'services',
    items: [{ description: 'Audit', quantity: '1', unit_price: 10000, vat_rate: '20' }],
  });
  await api(`/v1/invoices/${invoice.id}/finalize`, {});
  await api(`/v1/invoices/${invoice.id}/payments`, { amount: 12000 });
  const draftCredit = await api(`/v1/invoices/${invoice.id}/credit-note`, {
    credit_reason_code: 'commercial_gesture',
    items: [{ description: 'Geste commercial', quantity: '1', unit_price: 2000, vat_rate: '20' }],
  });
  await api(`/v1/invoices/${draftCredit.id}/finalize`, {});

  await page.goto(`/documents/${invoice.id}`);
  const panel = page.getByRole('region', { name: 'Paiements' });
  await expect(panel.getByTestId('refundable')).toHaveText(/24,00\s€/);
  const form = panel.getByRole('form', { name: 'Rembourser le client' });
  await form.getByLabel('Référence').fill('VIR REMB 24');
  await form.getByRole('button', { name: 'Enregistrer le remboursement' }).click();
  await expect(panel.getByRole('status')).toHaveText('Remboursement enregistré.');
  const row = panel.getByRole('row', { name: /VIR REMB 24/ });
  await expect(row).toContainText(/Remboursement sur AV-\d{4}-\d{5} · Virement/);
  await expect(row).toContainText(/-24,00\s€/);
  await expect(panel.getByTestId('refundable')).toHaveCount(0);
  await expect(page.getByTestId('document-status')).toHaveText('payé');

  // The credit note: its refund, and a closed document that can still be sent says so above its send card.
  await page.goto(`/documents/${draftCredit.id}`);
  const refunds = page.getByRole('region', { name: 'Remboursements' });
  await expect(refunds.getByRole('row', { name: /VIR REMB 24/ })).toContainText('Remboursement · Virement');
  await expect(page.getByRole('region', { name: 'Actions' })).toContainText('Ce document est clos : il peut seulement être envoyé par e-mail.');
  await expect(page.getByRole('button', { name: /Envoyer par e-mail/ })).toBeVisible();

  // The client's account: invoiced 120 − 24, received 120 − 24.
  await page.goto(`/contacts/${contact.id}`);
  const account = page.getByTestId('client-account');
  await expect(account).toContainText(/Facturé TTC, avoirs déduits\s*96,00\s€/);
  await expect(account).toContainText(/Encaissé\s*96,00\s€/);

  refunded = { invoice: invoice.id, creditNote: draftCredit.id };
});

test.describe('on a phone', () => {
  test.use({ viewport: PHONE, isMobile: true, hasTouch: true });

  test('the invoice’s payments with the refund, and the credit note’s refunds, fit the screen', async ({ page }) => {
    test.skip(!refunded, 'needs the refund journey above');
    await signIn(page);
    await page.goto(`/documents/${refunded!.invoice}`);
    await expect(page.getByRole('region', { name: 'Paiements' })).toContainText('Remboursement sur AV-');
    expect(await phoneOverflow(page)).toEqual({ by: 0, wider: [] });
    await page.goto(`/documents/${refunded!.creditNote}`);
    await expect(page.getByRole('region', { name: 'Remboursements' })).toBeVisible();
    expect(await phoneOverflow(page)).toEqual({ by: 0, wider: [] });
  });
});

test('Réglages → Organisation suggests the Alsace-Moselle calendar for a postal code in 67, and keeps the choice', async ({ page }) => {
  await signIn(page);
  await page.goto('/settings/organisation');
  const box = page.getByLabel('Établissement en Alsace-Moselle (Vendredi saint et 26 décembre fériés)');
  await expect(box).not.toBeChecked();
  const postal = page.getByLabel('Code postal');
  const before = await postal.inputValue();
  await postal.fill('67000');
  await expect(page.getByText('Votre code postal est en Moselle ou en Alsace')).toBeVisible();
  await postal.fill(before);
  await box.check();
  await page.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(page.getByText('Identité enregistrée.')).toBeVisible();
  await page.reload();
  await expect(box).toBeChecked();
  // Back as it was, for the other journeys' reminders.
  await box.uncheck();
  await page.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(page.getByText('Identité enregistrée.')).toBeVisible();
  await page.reload();
  await expect(box).not.toBeChecked();
});
