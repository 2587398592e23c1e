import AxeBuilder from '@axe-core/playwright';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { apiAs, rememberSecret, signIn } from './helpers';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** The page at `url` passes axe (WCAG 2.1 A and AA) on a phone and on a desktop. */
async function expectAccessible(browser: Browser, url: string) {
  for (const viewport of [PHONE, { width: 1280, height: 900 }]) {
    const context = await browser.newContext({ viewport, locale: 'fr-FR' });
    const page = await context.newPage();
    await page.goto(url);
    const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    expect(violations.flatMap((v) => v.nodes.map((n) => `${viewport.width} ${v.id} ${v.help} ${n.target.join(' ')}`))).toEqual([]);
    await context.close();
  }
}

/** What the payer came for is in the first screen: the amount due and every way to pay (issue 35). */
async function expectAboveTheFold(page: Page, viewport: { height: number }) {
  const targets = [
    page.getByText(/^Montant à régler/),
    page.getByRole('button', { name: 'Payer par carte' }),
    page.getByRole('button', { name: 'Payer par prélèvement SEPA' }),
    page.getByRole('link', { name: 'Payer par virement' }),
  ];
  for (const target of targets) {
    const box = await target.boundingBox();
    expect(box, `${target}`).not.toBeNull();
    expect(box!.y + box!.height, `${target} ends at ${box!.y + box!.height} px`).toBeLessThanOrEqual(viewport.height);
  }
}

/*
 * The payer's journey (issue 14): staff send an invoice for payment; the payer opens the /pay link from the e-mail in
 * the outbox on a phone without JavaScript, cancels a SEPA debit on the (fake) hosted Checkout, then pays by card,
 * comes back to "Paiement reçu"; the back-office shows the invoice paid by card. The org's account is the fake
 * Stripe's, connected before the server started (scripts/e2e-prepare.ts); the fake's events reach the webhook.
 */
test('send for payment → the /pay link from the e-mail → cancel, then pay by card → paid in the back-office', async ({ page, browser }) => {
  await signIn(page);
  const post = apiAs(page);
  // The org's IBAN (issue 35): the page offers the transfer too. Put back as it was at the end.
  const origin = new URL(page.url()).origin;
  const settings = await (await page.request.get('/v1/invoice/settings')).json();
  const putSettings = async (data: unknown) => expect((await page.request.put('/v1/invoice/settings', { data, headers: { Origin: origin } })).status()).toBe(200);
  await putSettings({ ...settings, iban: 'FR7630006000011234567890189', bic: 'AGRIFRPP' });
  const contact = await post('/v1/contacts', { type: 'professionnel', company: 'Studio Payeur', siret: '73282932000074', email: 'compta@payeur.test', city: 'Lille' });
  const draft = await post('/v1/invoices', {
    type: 'facture',
    contact_id: contact.id,
    operation_nature: 'services',
    items: [
      { description: 'Identité visuelle', quantity: '1', unit_price: 180000, vat_rate: '20' },
      { description: 'Déclinaisons', quantity: '3', unit_price: 15000, vat_rate: '20' },
    ],
  });
  const invoice = (await post(`/v1/invoices/${draft.id}/finalize`, {})) as unknown as { id: string; number: string; total_ttc: number };
  expect(invoice.total_ttc).toBe(270000);
  await post(`/v1/invoices/${invoice.id}/send-for-payment`, {});

  // The e-mail in the outbox carries the payment link.
  await page.goto('/dev/mail');
  await page.locator('main a[href^="/dev/mail/"]').first().click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText(invoice.number);
  const text = await page.locator('pre').first().textContent();
  const payUrl = /https?:\/\/\S+\/pay\/[A-Za-z0-9_-]{43}/.exec(text ?? '')?.[0];
  expect(payUrl, `a /pay link in:\n${text}`).toBeTruthy();
  rememberSecret(payUrl!.split('/pay/')[1]!);

  // The payer: another browser, a phone, French, no JavaScript.
  const payerContext = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, javaScriptEnabled: false, locale: 'fr-FR' });
  const payer = await payerContext.newPage();
  const res = await payer.goto(payUrl!);
  expect(res?.status()).toBe(200);
  expect(res?.headers()).toMatchObject({ 'referrer-policy': 'no-referrer', 'x-robots-tag': 'noindex, nofollow' });
  expect(res?.headers()['cache-control']).toContain('no-store');
  await expect(payer.getByRole('heading', { level: 1 })).toHaveText(`Facture ${invoice.number}`);
  await expect(payer.getByText('Atelier Lumière SAS').first()).toBeVisible();
  await expect(payer.getByText('Identité visuelle')).toBeVisible();
  await expect(payer.getByText('Montant à régler : 2 700,00 €')).toBeVisible();
  await expect(payer.getByRole('link', { name: 'Télécharger la facture (PDF)' })).toBeVisible();
  expect(await overflow(payer)).toBeLessThanOrEqual(0);
  await expectAboveTheFold(payer, PHONE);
  // « Payer par virement »: the IBAN, the reference to quote, the EPC QR code (an inline SVG, no script needed).
  const transfer = payer.getByRole('region', { name: 'Payer par virement' });
  await expect(transfer).toContainText('FR76 3000 6000 0112 3456 7890 189');
  await expect(transfer).toContainText('AGRIFRPP');
  await expect(transfer.locator('.pay-reference')).toHaveText(invoice.number);
  await expect(transfer.getByRole('img', { name: /QR code de virement SEPA/ })).toBeVisible();
  expect(await transfer.locator('svg path').getAttribute('d')).toMatch(/^M\d+ \d+h\d+v1h-\d+z/);
  await payer.getByRole('link', { name: 'Payer par virement' }).click();
  await expect(payer).toHaveURL(/#pay-transfer$/);
  // The same first screen on a desktop.
  const desktopContext = await browser.newContext({ viewport: DESKTOP, javaScriptEnabled: false, locale: 'fr-FR' });
  const desktop = await desktopContext.newPage();
  await desktop.goto(payUrl!);
  await expectAboveTheFold(desktop, DESKTOP);
  await expect(desktop.getByRole('img', { name: /QR code de virement SEPA/ })).toBeVisible();
  await desktopContext.close();
  await expectAccessible(browser, payUrl!);
  await expectAccessible(browser, `${payUrl}?status=cancel&lang=en`);

  // A SEPA debit, cancelled on the hosted page: back to "Paiement annulé" and the forms.
  await payer.getByRole('button', { name: 'Payer par prélèvement SEPA' }).click();
  await expect(payer).toHaveURL(/127\.0\.0\.1:\d+\/checkout\/cs_/);
  await expect(payer.getByText('2700,00 €')).toBeVisible();
  await payer.getByRole('button', { name: 'Annuler' }).click();
  await expect(payer).toHaveURL(/\/pay\/[A-Za-z0-9_-]{43}\?status=cancel$/);
  await expect(payer.getByRole('status')).toContainText('Paiement annulé');

  // By card, paid: "Paiement reçu", no form any more.
  await payer.getByRole('button', { name: 'Payer par carte' }).click();
  await expect(payer).toHaveURL(/127\.0\.0\.1:\d+\/checkout\/cs_/);
  await payer.getByRole('button', { name: 'Payer' }).click();
  await expect(payer).toHaveURL(/\?status=success&session=cs_/);
  await expect(payer.getByRole('status')).toContainText('Paiement reçu');
  await expect(payer.getByRole('button', { name: /Payer par/ })).toHaveCount(0);
  expect(await overflow(payer)).toBeLessThanOrEqual(0);
  await payer.goto(payUrl!);
  await expect(payer.getByText('Cette facture est réglée.')).toBeVisible();
  await expectAccessible(browser, payUrl!);

  // In English, from the link on the page.
  await payer.getByRole('link', { name: 'English' }).click();
  await expect(payer.getByRole('heading', { level: 1 })).toHaveText(`Invoice ${invoice.number}`);
  await expect(payer.getByText('This invoice is paid.')).toBeVisible();
  await payerContext.close();

  // The back-office: the invoice is paid, by card.
  await page.goto(`/documents/${invoice.id}`);
  await expect(page.getByTestId('document-status')).toHaveText('payée');
  await expect(page.getByRole('region', { name: 'Paiements' })).toContainText('2 700,00 €');

  // The e-mails of the payment (issue 35), written by the job the payment event queued: a receipt to the payer, in
  // the page's language, and « Facture … payée » to the org's owner.
  const rowOf = (subject: RegExp) => page.getByRole('table', { name: 'E-mails de la boîte d’envoi' }).getByRole('row').filter({ hasText: subject });
  await expect(async () => {
    await page.goto('/dev/mail');
    await expect(rowOf(new RegExp(`Paiement reçu – Facture ${invoice.number}`))).toHaveCount(1, { timeout: 1000 });
    await expect(rowOf(new RegExp(`Facture ${invoice.number} payée`))).toHaveCount(1, { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  await expect(rowOf(new RegExp(`Paiement reçu – Facture ${invoice.number}`))).toContainText('compta@payeur.test');
  await expect(rowOf(new RegExp(`Paiement reçu – Facture ${invoice.number}`))).toContainText('Reçu de paiement (fr)');
  await expect(rowOf(new RegExp(`Facture ${invoice.number} payée`))).toContainText('demo@paraphe.test');
  await rowOf(new RegExp(`Facture ${invoice.number} payée`)).getByRole('link').click();
  await expect(page.locator('pre').first()).toContainText('par carte bancaire');
  await putSettings(settings);
});

test('an unknown link is a 404 page in French and English', async ({ page, browser }) => {
  const res = await page.goto(`/pay/${'x'.repeat(43)}`);
  expect(res?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Lien de paiement introuvable' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Payment link not found' })).toBeVisible();
  await expectAccessible(browser, page.url());
});
