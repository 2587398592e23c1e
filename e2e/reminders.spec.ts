import { type Browser, expect, type Page, test } from '@playwright/test';
import { apiAs, PHONE, signIn } from './helpers';
import { expectAccessible } from './signature-setup';

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
  await expect(page.getByText('Document envoyé avec le lien de paiement en ligne. 6 relances programmées.')).toBeVisible();
  await expect(page.getByTestId('document-status')).toHaveText('envoyée');

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

const DESKTOP = { width: 1440, height: 900 };

/** A signed-in page of its own context at `viewport` (axe opens a second page in its context). */
async function staffPage(browser: Browser, viewport: { width: number; height: number }) {
  const page = await (await browser.newContext({ viewport })).newPage();
  await signIn(page);
  return page;
}

/** The figure a dashboard tile counts: "3 factures échues" → 3. */
const countOf = async (page: Page, testId: string) => Number(((await page.getByTestId(testId).locator('.muted').textContent()) ?? '').match(/\d+/)?.[0] ?? -1);
const documentRows = (page: Page) => page.getByRole('table', { name: 'Documents' }).locator('tbody tr');

test('issue 35: « À relancer » lists the overdue invoice without reminders, « Programmer les relances » in one click; the tiles open their lists', async ({ browser }) => {
  const desktop = await staffPage(browser, DESKTOP);
  // An invoice 20 days overdue that nobody chases (never sent by e-mail): a deposit invoice of 2 160 € TTC, due 20 days
  // before its issue (a deposit invoice may fall due before it is issued; finalizing today keeps its due date).
  const api = apiAs(desktop);
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date());
  const dueDay = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date(Date.now() - 20 * 86_400_000));
  const client = await api('/v1/contacts', { type: 'particulier', first_name: 'Jeanne', last_name: 'Retard', email: 'jeanne@retard.test', city: 'Lyon' });
  const quote = await api('/v1/invoices', {
    type: 'devis',
    contact_id: client.id,
    validity_date: today,
    operation_nature: 'services',
    items: [{ description: 'Direction artistique', quantity: '1', unit_price: 600000, vat_rate: '20' }],
  });
  await api(`/v1/invoices/${quote.id}/finalize`, {});
  const deposit = await api(`/v1/invoices/${quote.id}/deposit`, { percentage: '30' });
  const patched = await desktop.request.patch(`/v1/invoices/${deposit.id}`, { data: { due_date: dueDay }, headers: { Origin: new URL(desktop.url()).origin } });
  expect(patched.status(), await patched.text()).toBe(200);
  const invoice = (await api(`/v1/invoices/${deposit.id}/finalize`, {})) as unknown as { number: string; total_ttc: number; due_date: string };
  expect([invoice.total_ttc, invoice.due_date]).toEqual([216000, dueDay]);
  const number = invoice.number;

  // The dashboard's tiles open the list of what they count, the same figure.
  await desktop.goto('/');
  const overdueCount = await countOf(desktop, 'stat-overdue');
  expect(overdueCount).toBeGreaterThan(0);
  await desktop.getByTestId('stat-overdue').click();
  await expect(desktop).toHaveURL(/\/documents\?overdue=true$/);
  await expect(desktop.getByLabel('En retard de paiement')).toBeChecked();
  await expect(documentRows(desktop)).toHaveCount(overdueCount);
  // \b: the deposit's AC-… is not the FAC-… of the journey above.
  await expect(desktop.getByRole('row', { name: new RegExp(`\\b${number}\\b`) })).toContainText('en retard');
  await expectAccessible(desktop, '1440 /documents?overdue=true');
  await desktop.goto('/');
  const outstandingCount = await countOf(desktop, 'stat-outstanding');
  await desktop.getByTestId('stat-outstanding').click();
  await expect(desktop).toHaveURL(/\/documents\?outstanding=true$/);
  await expect(documentRows(desktop)).toHaveCount(outstandingCount);
  await desktop.goto('/');
  const quotesCount = await countOf(desktop, 'stat-quotes');
  await desktop.getByTestId('stat-quotes').click();
  await expect(desktop).toHaveURL(/\/documents\?awaiting_answer=true/);
  await expect(documentRows(desktop)).toHaveCount(quotesCount);

  // « À relancer » at 1440 px: the invoice is listed, nothing scheduled, the button beside it.
  await desktop.goto('/reminders');
  const row = desktop.getByTestId(`tracking-${deposit.id}`);
  await expect(row).toContainText(number);
  await expect(row).toContainText('Jeanne Retard');
  await expect(row).toContainText('20 j');
  await expect(row).toContainText('Aucune relance programmée');
  await expect(row.getByRole('button', { name: `Programmer les relances de la facture ${number}` })).toBeVisible();
  await expectAccessible(desktop, '1440 /reminders');

  // At 390 px, the same row, and the one click from there.
  const phone = await staffPage(browser, PHONE);
  await phone.goto('/reminders');
  const phoneRow = phone.getByTestId(`tracking-${deposit.id}`);
  await expect(phoneRow).toContainText('Aucune relance programmée');
  await expectAccessible(phone, '390 /reminders');
  await phoneRow.getByRole('button', { name: `Programmer les relances de la facture ${number}` }).click();
  await expect(phone.getByRole('status').filter({ hasText: /programmées?, la prochaine le \d{2}\/\d{2}\/\d{4}/ })).toBeVisible();
  await expect(phoneRow).not.toContainText('Aucune relance programmée');
  await expect(phoneRow).toContainText(/0 envoyée, \d+ programmées?/);
  await expect(phoneRow.getByRole('button', { name: /Programmer les relances/ })).toHaveCount(0);
  await expectAccessible(phone, '390 /reminders, scheduled');

  // Back at 1440 px: still listed, now with its next reminder.
  await desktop.reload();
  await expect(row).toContainText(/0 envoyée, \d+ programmées?/);
  await expect(row.getByRole('cell').nth(7)).toHaveText(/\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/);
  await phone.context().close();
  await desktop.context().close();
});
