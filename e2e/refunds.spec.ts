import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { apiAs, PHONE, phoneOverflow, payByCard, signIn } from './helpers';
import { expectAccessible } from './signature-setup';

/*
 * Issue 35 item 5: a refund after a credit note, offline (recorded, explicitly) or by card through Stripe from the
 * credit note. At 1440 px (the journeys) and at 390 px (each with its own data: nothing wider than the phone), axe clean.
 */
test.use({ viewport: { width: 1440, height: 900 } });

/** An invoice of 120 € paid by transfer (recorded), credited by 24 € (finalized): what an offline refund starts from. */
async function paidAndCredited(page: Page, company: string) {
  const api = apiAs(page);
  const contact = await api('/v1/contacts', { type: 'professionnel', company, siret: '73282932000074', email: 'compta@rembourse.test' });
  const invoice = await api('/v1/invoices', {
    type: 'facture',
    contact_id: contact.id,
    operation_nature: 'services',
    items: [{ description: 'Audit', quantity: '1', unit_price: 10000, vat_rate: '20' }],
  });
  await api(`/v1/invoices/${invoice.id}/finalize`, {});
  await api(`/v1/invoices/${invoice.id}/payments`, { amount: 12000 });
  const credit = await api(`/v1/invoices/${invoice.id}/credit-note`, {
    credit_reason_code: 'commercial_gesture',
    items: [{ description: 'Geste commercial', quantity: '1', unit_price: 2000, vat_rate: '20' }],
  });
  await api(`/v1/invoices/${credit.id}/finalize`, {});
  return { contact: contact.id, invoice: invoice.id, creditNote: credit.id };
}

/** An invoice of 120 € paid by card on the fake hosted Checkout (the /pay page's form posts there), credited in full. */
async function cardPaidAndCredited(page: Page, request: APIRequestContext, company: string) {
  const api = apiAs(page);
  const contact = await api('/v1/contacts', { type: 'professionnel', company, siret: '73282932000074', email: 'compta@carte.test' });
  const invoice = await api('/v1/invoices', {
    type: 'facture',
    contact_id: contact.id,
    operation_nature: 'services',
    items: [{ description: 'Atelier', quantity: '1', unit_price: 10000, vat_rate: '20' }],
  });
  await api(`/v1/invoices/${invoice.id}/finalize`, {});
  await payByCard(page, invoice.id, request);
  const credit = await api(`/v1/invoices/${invoice.id}/credit-note`, {
    credit_reason_code: 'cancellation',
    items: [{ description: 'Atelier annulé', quantity: '1', unit_price: 10000, vat_rate: '20' }],
  });
  await api(`/v1/invoices/${credit.id}/finalize`, {});
  return { invoice: invoice.id, creditNote: credit.id };
}

test('a paid invoice credited by 24,00 € is refunded from its page; the credit note lists the refund; the books balance', async ({ page }) => {
  await signIn(page);
  const { contact, invoice, creditNote } = await paidAndCredited(page, 'Remboursé SARL');

  await page.goto(`/documents/${invoice}`);
  const panel = page.getByRole('region', { name: 'Paiements' });
  await expect(panel.getByTestId('refundable')).toHaveText(/24,00\s€/);
  await expect(panel.getByTestId('credit-note-line')).toContainText('à rembourser au client');
  await expect(panel.getByTestId('credit-note-line')).not.toContainText('à déduire');
  // Paid by transfer: no card refund, only the offline one, chosen explicitly.
  await expect(panel.getByText('Rembourser par carte…')).toHaveCount(0);
  await panel.getByText('Enregistrer un remboursement hors ligne…').click();
  const form = panel.getByRole('form', { name: 'Remboursement hors ligne' });
  await expect(form.getByLabel('Moyen').locator('option')).toHaveText(['Virement', 'Chèque', 'Espèces']);
  await form.getByLabel('Référence').fill('VIR REMB 24');
  await form.getByRole('button', { name: 'Enregistrer le remboursement hors ligne' }).click();
  await expect(panel.getByRole('status')).toHaveText('Remboursement enregistré.');
  const row = panel.getByRole('row', { name: /VIR REMB 24/ });
  await expect(row).toContainText(/Remboursement sur AV-\d{4}-\d{5} · Virement/);
  await expect(row).toContainText(/-24,00\s€/);
  await expect(panel.getByTestId('refundable')).toHaveCount(0);
  await expect(panel.getByTestId('credit-note-line')).toContainText('remboursé au client');
  await expect(panel.getByTestId('refunded')).toHaveText(/24,00\s€/);
  await expect(page.getByTestId('document-status')).toHaveText('payée');
  await expectAccessible(page, 'the refunded invoice');

  // The credit note: its refund, and a closed document that can still be sent says so above its send card.
  await page.goto(`/documents/${creditNote}`);
  const refunds = page.getByRole('region', { name: 'Remboursements' });
  await expect(refunds.getByRole('row', { name: /VIR REMB 24/ })).toContainText('Remboursement · Virement');
  await expect(page.getByRole('region', { name: 'Actions' })).toContainText('Ce document est clos : il peut seulement être envoyé par e-mail.');
  await expect(page.getByRole('button', { name: /Envoyer par e-mail/ })).toBeVisible();

  // The client's account: invoiced 120 − 24, received 120 − 24.
  await page.goto(`/contacts/${contact}`);
  const account = page.getByTestId('client-account');
  await expect(account).toContainText(/Facturé TTC, avoirs déduits\s*96,00\s€/);
  await expect(account).toContainText(/Encaissé\s*96,00\s€/);
});

test('a card-paid invoice credited in full: 50 € refunded by card from the credit note (pending, then confirmed by Stripe), the rest offline', async ({ page, request }) => {
  await signIn(page);
  const { invoice, creditNote } = await cardPaidAndCredited(page, request, 'Carte Remboursée SARL');

  // The invoice: paid, nothing due, the credit note is owed back to the client (not « à déduire »).
  await page.goto(`/documents/${invoice}`);
  const payments = page.getByRole('region', { name: 'Paiements' });
  await expect(payments.getByTestId('remaining-due')).toHaveText(/0,00\s€/);
  await expect(payments.getByTestId('credit-note-line')).toContainText('à rembourser au client');
  await expect(payments.getByTestId('refundable')).toHaveText(/120,00\s€/);

  // The credit note: « Rembourser par carte… », 50 € of the 120 €, confirmed.
  await page.goto(`/documents/${creditNote}`);
  const refunds = page.getByRole('region', { name: 'Remboursements' });
  await refunds.getByText('Rembourser par carte…').click();
  const cardForm = refunds.getByRole('form', { name: 'Remboursement par carte' });
  await expect(cardForm.getByLabel('Montant à rembourser par carte (€)')).toHaveValue('120');
  await cardForm.getByLabel('Montant à rembourser par carte (€)').fill('130');
  await cardForm.getByRole('button', { name: 'Confirmer le remboursement par carte' }).click();
  await expect(cardForm.getByRole('alert')).toBeVisible();
  await cardForm.getByLabel('Montant à rembourser par carte (€)').fill('50');
  await cardForm.getByRole('button', { name: 'Confirmer le remboursement par carte' }).click();
  await expect(refunds.getByRole('status').first()).toContainText('Remboursement par carte demandé');
  const table = refunds.getByRole('table', { name: 'Remboursements par carte' });
  await expect(table).toContainText(/50,00\s€/);
  // Stripe confirms a moment later (refund.updated): counted then.
  await expect(async () => {
    await page.reload();
    await expect(table.getByTestId('online-refund-status')).toHaveText('remboursé', { timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await expect(refunds.getByTestId('refunded')).toHaveText(/50,00\s€/);
  await expect(refunds.getByTestId('refundable')).toHaveText(/70,00\s€/);
  await expect(refunds.getByRole('table', { name: 'Remboursements effectués' })).toContainText('Carte bancaire');
  await expectAccessible(page, 'the credit note refunded by card');

  // The rest, given back by cheque: recorded only, explicitly.
  await refunds.getByText('Enregistrer un remboursement hors ligne…').click();
  const offline = refunds.getByRole('form', { name: 'Remboursement hors ligne' });
  await offline.getByLabel('Moyen').selectOption('cheque');
  await offline.getByLabel('Référence').fill('CHQ 0042');
  await offline.getByRole('button', { name: 'Enregistrer le remboursement hors ligne' }).click();
  await expect(refunds.getByRole('status').first()).toHaveText('Remboursement enregistré.');
  await expect(refunds.getByTestId('refundable')).toHaveText(/0,00\s€/);
  await expect(refunds.getByText('Rembourser par carte…')).toHaveCount(0);

  await page.goto(`/documents/${invoice}`);
  await expect(payments.getByTestId('credit-note-line')).toContainText('remboursé au client');
  await expect(payments.getByTestId('credit-note-line')).not.toContainText('à déduire');
  await expect(payments.getByTestId('refunded')).toHaveText(/120,00\s€/);
  await expect(page.getByTestId('document-status')).toHaveText('payée');
});

test.describe('on a phone', () => {
  test.use({ viewport: PHONE, isMobile: true, hasTouch: true });

  test('an offline refund recorded from the invoice’s payments, and the credit note’s refunds, fit the screen', async ({ page }) => {
    await signIn(page);
    const { invoice, creditNote } = await paidAndCredited(page, 'Remboursé Mobile SARL');
    await page.goto(`/documents/${invoice}`);
    const panel = page.getByRole('region', { name: 'Paiements' });
    await panel.getByText('Enregistrer un remboursement hors ligne…').click();
    const form = panel.getByRole('form', { name: 'Remboursement hors ligne' });
    await form.getByLabel('Référence').fill('VIR MOBILE 24');
    expect(await phoneOverflow(page)).toEqual({ by: 0, wider: [] });
    await expectAccessible(page, 'the invoice’s offline refund form');
    await form.getByRole('button', { name: 'Enregistrer le remboursement hors ligne' }).click();
    await expect(panel.getByRole('status')).toHaveText('Remboursement enregistré.');
    await expect(panel).toContainText('Remboursement sur AV-');
    expect(await phoneOverflow(page)).toEqual({ by: 0, wider: [] });
    await page.goto(`/documents/${creditNote}`);
    await expect(page.getByRole('region', { name: 'Remboursements' }).getByRole('row', { name: /VIR MOBILE 24/ })).toBeVisible();
    expect(await phoneOverflow(page)).toEqual({ by: 0, wider: [] });
    await expectAccessible(page, 'the credit note refunded offline');
  });

  test('a card refund from the credit note: its form and its table of card refunds fit the screen and stay axe clean', async ({ page, request }) => {
    await signIn(page);
    const { creditNote } = await cardPaidAndCredited(page, request, 'Carte Mobile SARL');
    await page.goto(`/documents/${creditNote}`);
    const refunds = page.getByRole('region', { name: 'Remboursements' });
    await refunds.getByText('Rembourser par carte…').click();
    const cardForm = refunds.getByRole('form', { name: 'Remboursement par carte' });
    await cardForm.getByLabel('Montant à rembourser par carte (€)').fill('50');
    expect(await phoneOverflow(page)).toEqual({ by: 0, wider: [] });
    await expectAccessible(page, 'the card refund form');
    await cardForm.getByRole('button', { name: 'Confirmer le remboursement par carte' }).click();
    await expect(refunds.getByRole('status').first()).toContainText('Remboursement par carte demandé');
    const table = page.getByRole('table', { name: 'Remboursements par carte' });
    await expect(table).toContainText(/50,00\s€/);
    expect(await phoneOverflow(page)).toEqual({ by: 0, wider: [] });
    await expectAccessible(page, 'the credit note’s card refunds');
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
