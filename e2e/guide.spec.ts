import { mkdirSync } from 'node:fs';
import { type Browser, expect, type Locator, type Page, test } from '@playwright/test';
import { signIn } from './helpers';
import { type Showcase, seedShowcase } from './showcase';

/**
 * The screenshots of the user guide (docs/guide.md), taken on the built app at each run so they show the screens as
 * they are: 1440 px for the main screens, 390 px for two of them.
 */
const DIR = 'docs/guide';
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

test.describe.configure({ mode: 'serial', timeout: 180_000 });
let page: Page;
let data: Showcase;

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  mkdirSync(DIR, { recursive: true });
  page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
});
test.afterAll(() => page.context().close());

/** The page (or one part of it) as the guide shows it; the caret and animations are hidden, so only changes show. */
const shoot = (name: string, target: Page | Locator = page) =>
  target.screenshot({ path: `${DIR}/${name}.png`, animations: 'disabled', caret: 'hide' });

async function open(path: string, heading?: string | RegExp) {
  await page.goto(path);
  await expect(heading ? page.getByRole('heading', { level: 1, name: heading }) : page.getByRole('heading', { level: 1 })).toBeVisible();
}

test('the main screens at 1440 px', async () => {
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Se connecter' })).toBeVisible();
  await shoot('connexion');
  await signIn(page);
  data = await seedShowcase(page);

  await open('/', /Bonjour/);
  await shoot('tableau-de-bord');
  await open('/contacts/new');
  await shoot('nouveau-client');
  await open(`/contacts/${data.contact}`);
  await shoot('fiche-client');
  await open('/documents/new?type=devis', 'Nouveau devis');
  await shoot('nouveau-devis');
  await open(`/documents/${data.quote}`);
  await shoot('devis-accepte');
  await open(`/documents/${data.deposit}`);
  await shoot('facture-acompte');

  await open(`/documents/${data.finalized}`);
  await page.getByRole('button', { name: 'Envoyer par e-mail…' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await shoot('envoyer');
  await open(`/documents/${data.invoice}`);
  await shoot('encaisser', page.getByRole('region', { name: 'Paiements', exact: true }));
  await shoot('relances-facture', page.getByRole('region', { name: 'Relances de paiement', exact: true }));
  await open('/reminders');
  await shoot('a-relancer');
  await open(`/recurring/${data.recurring}`);
  await shoot('modele-recurrent');
  await open(`/documents/${data.creditNote}`);
  await shoot('avoir');
  await open('/documents');
  await shoot('devis-et-factures');
  await open('/exports');
  await shoot('exports');
  await open('/settings/organisation');
  await shoot('parametres-organisation');
  await open('/settings/invoicing');
  await shoot('parametres-facturation');
});

test('two screens at 390 px', async () => {
  await page.setViewportSize(PHONE);
  await open(`/documents/${data.invoice}`);
  await shoot('telephone-facture');
  await page.getByText('Menu', { exact: true }).click();
  await expect(page.getByRole('navigation', { name: 'Activité' })).toBeVisible();
  await shoot('telephone-menu');
});

test('issue 35 item 4: the payer’s page at 390 px', async () => {
  await page.setViewportSize(PHONE);
  const origin = new URL(page.url()).origin;
  const settings = await (await page.request.get('/v1/invoice/settings')).json();
  const put = async (body: unknown) => expect((await page.request.put('/v1/invoice/settings', { data: body, headers: { Origin: origin } })).status()).toBe(200);
  await put({ ...settings, iban: 'FR7630006000011234567890189', bic: 'AGRIFRPP' });
  const link = await page.request.post(`/v1/invoices/${data.finalized}/payment-link`, { headers: { Origin: origin } });
  expect(link.status(), await link.text()).toBeLessThan(300);
  const { url } = (await link.json()) as { url: string };
  // In French, as a French payer's browser asks (the guide's Chromium says English).
  await page.goto(`${url}?lang=fr`);
  await expect(page.getByRole('link', { name: 'Payer par virement' })).toBeVisible();
  await shoot('paiement-telephone');
  await shoot('paiement-virement', page.getByRole('region', { name: 'Payer par virement' }));
  await put(settings);
});

test('issue 35, item 10: the documents list on a phone (cards, filters folded)', async () => {
  await page.setViewportSize(PHONE);
  await open('/documents?type=facture');
  await expect(page.locator('search details summary')).toHaveText('Filtres (1 actif)');
  await shoot('telephone-documents');
});
