import { expect, type Page, test } from '@playwright/test';
import { startSandboxPa } from '@/lib/domain/einvoicing/sandbox/server';
import { isValidSiret } from '@/lib/platform/identifiers';
import { apiAs, PHONE, phoneOverflow, signIn } from './helpers';
import { expectAccessible } from './signature-setup';

/**
 * Issue 35 item 7: e-invoicing feedback. A sandbox PA runs in this process. Réglages → Facturation électronique is the
 * one PA screen: « Tester la connexion » says what failed (a closed port) and what worked (the sandbox) before saving;
 * Réglages → Facturation has no JSON textarea left. Then an invoice to a French company goes to the PA: its badge in
 * the header and in the documents list, and « Actualiser » brings the PA's rejection (213) without waiting for the
 * 5-minute poll. The demo org is disconnected again at the end (the other journeys do not expect e-invoicing). At 1440 px,
 * then the PA screen, the invoice and the list at 390 px: nothing wider than the phone; axe clean at both.
 */
const CLIENT_ID = 'e2e-feedback';
const REJECTED_SIREN = '213000003';
const siretOf = (siren: string) => [...Array(10).keys()].map((k) => `${siren}0001${k}`).find(isValidSiret)!;

let sandbox: Awaited<ReturnType<typeof startSandboxPa>>;
test.beforeAll(async () => {
  sandbox = await startSandboxPa({ clients: { [CLIENT_ID]: 'feedback-secret-0042' } });
});
test.afterAll(() => sandbox.close());

async function disconnect(page: Page) {
  await page.goto('/settings/einvoicing');
  for (const label of ['Adresse de l’API de la plateforme', 'Adresse du jeton OAuth (facultatif)', 'Identifiant client']) await page.getByLabel(label).fill('');
  await page.getByLabel(/Transmettre les factures aux clients professionnels/).uncheck();
  await page.getByRole('button', { name: 'Enregistrer' }).first().click();
  await expect(page.getByText('Connexion à la plateforme agréée supprimée.')).toBeVisible();
}

test.use({ viewport: { width: 1440, height: 900 } });

test('the PA screen tests the connection; a transmitted invoice shows its badge and « Actualiser » brings its status', async ({ page, browser }) => {
  test.setTimeout(150_000);
  await signIn(page);

  // Réglages → Facturation points to the one PA screen.
  await page.goto('/settings/invoicing');
  await expect(page.getByLabel('Configuration de la plateforme agréée (JSON)')).toHaveCount(0);
  await page.getByRole('link', { name: 'Réglages → Facturation électronique' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Facturation électronique' })).toBeVisible();

  // Failure: nothing listens there; success: the sandbox, with the secret typed (nothing saved yet).
  await page.getByLabel('Adresse de l’API de la plateforme').fill('http://127.0.0.1:9');
  await page.getByLabel('Identifiant client').fill(CLIENT_ID);
  await page.getByLabel('Secret client').fill('feedback-secret-0042');
  await page.getByRole('button', { name: 'Tester la connexion' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'La connexion a échoué' })).toContainText('impossible de joindre la plateforme');
  const checks = page.getByRole('list', { name: 'Étapes du test de connexion' });
  await expect(checks.getByRole('listitem')).toHaveText([/Jeton OAuth.*impossible de joindre/, /Service Flow.*non testé/, /Service Annuaire.*non testé/]);

  await page.getByLabel('Adresse de l’API de la plateforme').fill(sandbox.url);
  await page.getByLabel('Secret client').fill('wrong-secret-000000');
  await page.getByRole('button', { name: 'Tester la connexion' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'La connexion a échoué' })).toContainText('identifiant ou secret client refusé');

  await page.getByLabel('Secret client').fill('feedback-secret-0042');
  await page.getByRole('button', { name: 'Tester la connexion' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Connexion réussie' })).toContainText(sandbox.url);
  await expect(checks.getByRole('listitem')).toHaveText([/Jeton OAuth.*répond/, /Service Flow.*répond/, /Service Annuaire.*répond/]);
  await expectAccessible(page, '/settings/einvoicing');

  await page.getByLabel(/Transmettre les factures aux clients professionnels/).check();
  await page.getByRole('button', { name: 'Enregistrer' }).first().click();
  await expect(page.getByText('Plateforme agréée enregistrée.')).toBeVisible();
  // The secret is never shown again: the field is empty, its hint says it is kept.
  await page.reload();
  await expect(page.getByLabel('Secret client')).toHaveValue('');
  await expect(page.getByText(/Enregistré \(••••0042\)/)).toBeVisible();

  try {
    const api = apiAs(page);
    const contact = await api('/v1/contacts', { type: 'professionnel', company: 'Rejet Sémantique SAS', siret: siretOf(REJECTED_SIREN), email: 'compta@rejet.test' });
    const invoice = await api('/v1/invoices', {
      type: 'facture',
      contact_id: contact.id,
      operation_nature: 'services',
      items: [{ description: 'Conseil', quantity: '1', unit_price: 50000, vat_rate: '20' }],
    });
    const { number } = (await api(`/v1/invoices/${invoice.id}/finalize`, {})) as unknown as { number: string };

    // The badge follows the transmission (the PDF rendered, then submitted by their jobs).
    await page.goto(`/documents/${invoice.id}`);
    const badge = page.locator('.page-header').getByTestId('transmission-badge');
    await expect(badge).toHaveText(/^PA : /);
    await expect(async () => {
      await page.reload();
      await expect(badge).toHaveText(/PA : (Transmise|Rejetée)/, { timeout: 2_000 });
    }).toPass({ timeout: 90_000 });

    // The card is near the top: before the totals.
    const card = page.getByRole('region', { name: 'Facturation électronique' });
    const [cardTop, totalsTop] = await Promise.all([card.boundingBox(), page.getByRole('region', { name: 'Totaux' }).boundingBox()]);
    expect(cardTop!.y).toBeLessThan(totalsTop!.y);

    await card.getByRole('button', { name: 'Actualiser' }).click();
    await expect(card.getByRole('status')).toContainText('Dernier statut : Rejetée.');
    await expect(badge).toHaveText('PA : Rejetée');
    await expect(card.getByTestId('lifecycle-status')).toHaveText('Rejetée');
    await expect(card.getByRole('table', { name: 'Cycle de vie de la facture électronique' })).toContainText('213 Rejetée');
    // Clicked again at once: refused, the PA not asked.
    await card.getByRole('button', { name: 'Actualiser' }).click();
    await expect(card.getByRole('alert')).toHaveText('Trop de demandes : patientez quelques secondes.');
    await expectAccessible(page, '/documents/[id]');

    // The documents list carries the badge too, and the page fits a phone.
    await page.goto(`/documents?q=${encodeURIComponent(number)}`);
    await expect(page.getByRole('row', { name: new RegExp(number) }).getByTestId('transmission-badge')).toHaveText('PA : Rejetée');
    const phone = await (await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, storageState: await page.context().storageState() })).newPage();
    await phone.goto(`/documents/${invoice.id}`);
    await expect(phone.locator('.page-header').getByTestId('transmission-badge')).toHaveText('PA : Rejetée');
    expect(await phoneOverflow(phone)).toEqual({ by: 0, wider: [] });
    await expectAccessible(phone, '390 /documents/[id]');
    await phone.goto(`/documents?q=${encodeURIComponent(number)}`);
    await expect(phone.getByTestId('transmission-badge').first()).toHaveText('PA : Rejetée');
    expect(await phoneOverflow(phone)).toEqual({ by: 0, wider: [] });
    await expectAccessible(phone, '390 /documents');
    await phone.goto('/settings/einvoicing');
    await expect(phone.getByRole('button', { name: 'Tester la connexion' })).toBeVisible();
    expect(await phoneOverflow(phone)).toEqual({ by: 0, wider: [] });
    await expectAccessible(phone, '390 /settings/einvoicing');
    await phone.context().close();
  } finally {
    await disconnect(page);
  }
});
