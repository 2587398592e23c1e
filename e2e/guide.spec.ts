import { mkdirSync } from 'node:fs';
import { type Browser, expect, type Locator, type Page, test } from '@playwright/test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { startSandboxPa } from '@/lib/domain/einvoicing/sandbox/server';
import { apiAs, payByCard, signIn } from './helpers';
import { type Showcase, seedShowcase } from './showcase';
import { envelopeReaches, signerLink, signerPage, staffApi } from './signature-setup';

/**
 * The screenshots of the user guide (docs/guide.md), taken on the built app at each run so they show the screens as
 * they are: 1440 px for the back office, 390 px for a few screens of a phone, the payer's and the signer's.
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

/** A one-line invoice (20 % VAT) to the showcase's client, finalized through the API. */
async function finalizedInvoice(description: string, unitPrice: number) {
  const api = apiAs(page);
  const invoice = await api('/v1/invoices', {
    type: 'facture',
    contact_id: data.contact,
    operation_nature: 'services',
    items: [{ description, quantity: '1', unit_price: unitPrice, vat_rate: '20' }],
  });
  await api(`/v1/invoices/${invoice.id}/finalize`, {});
  return invoice;
}

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

/** A card of the page by its title (the sections without an accessible name). */
const card = (title: string) => page.locator('section.card').filter({ has: page.getByRole('heading', { level: 2, name: title, exact: true }) });

test('issue 35, item 15: a discount as a percentage of its VAT group, in the editor', async () => {
  await page.setViewportSize(DESKTOP);
  const api = apiAs(page);
  const quote = await api('/v1/invoices', {
    type: 'devis',
    contact_id: data.contact,
    operation_nature: 'mixte',
    items: [
      { description: 'Pose de parquet chêne', quantity: '20', unit: 'MTK', unit_price: 4550, vat_rate: '10' },
      { description: 'Déplacement', quantity: '1', unit_price: 15000, vat_rate: '20' },
    ],
  });
  await open(`/documents/${quote.id}/edit`);
  await expect(page.getByLabel('Désignation de la ligne 2')).toHaveValue('Déplacement');
  await page.getByRole('button', { name: 'Ajouter une remise' }).click();
  await page.getByLabel('Désignation de la ligne 3').fill('Remise fidélité');
  await page.getByLabel('Taux de TVA de la ligne 3').selectOption('10.00');
  // 10 % of the 10 % group's 910,00 €: 91,00 €, computed as it is typed (the 20 % line is not in it).
  await page.getByLabel('Pourcentage de la remise de la ligne 3').fill('10');
  await expect(page.getByLabel('Montant de la remise de la ligne 3')).toHaveValue('91');
  await expect(page.getByTestId('editor-total-ht')).toHaveText(/969,00\s€/);
  await page.getByLabel('Pourcentage de la remise de la ligne 3').blur();
  await shoot('remise', card('Lignes'));
});

test('issue 35, item 5: a card refund from the credit note of a card-paid invoice', async () => {
  await page.setViewportSize(DESKTOP);
  const api = apiAs(page);
  const invoice = await finalizedInvoice('Vitrification du parquet', 10000);
  await payByCard(page, invoice.id);
  const credit = await api(`/v1/invoices/${invoice.id}/credit-note`, {
    credit_reason_code: 'cancellation',
    credit_reason_text: 'Prestation annulée',
    items: [{ description: 'Vitrification annulée', quantity: '1', unit_price: 10000, vat_rate: '20' }],
  });
  await api(`/v1/invoices/${credit.id}/finalize`, {});

  await open(`/documents/${credit.id}`);
  const refunds = page.getByRole('region', { name: 'Remboursements' });
  await refunds.getByText('Rembourser par carte…').click();
  await expect(refunds.getByRole('form', { name: 'Remboursement par carte' }).getByLabel('Montant à rembourser par carte (€)')).toHaveValue('120');
  await shoot('remboursement', refunds);
});

test('issue 35, item 17: the team page, a read-only comptable invited', async () => {
  await page.setViewportSize(DESKTOP);
  await open('/settings/team', 'Équipe');
  await page.getByLabel('E-mail').fill('cabinet@expert-comptable.test');
  await page.getByLabel('Rôle').selectOption('accountant');
  await page.getByRole('button', { name: 'Inviter' }).click();
  await expect(page.getByText('Invitation envoyée à cabinet@expert-comptable.test.')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Invitations en attente' }).getByText('cabinet@expert-comptable.test')).toBeVisible();
  await shoot('equipe');
});

/** A one-page contract, made here (no fixture to keep in step), uploaded as a signature document. */
async function uploadContract(): Promise<string> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const p = pdf.addPage([595, 842]);
  p.drawText('Contrat d’entretien des parquets', { x: 60, y: 760, size: 20, font: bold });
  const lines = [
    'Entre Paraphe Démo, le prestataire, et Ébénisterie Vitrac, le client.',
    '',
    'Article 1 — Objet : l’entretien mensuel des parquets de l’atelier.',
    'Article 2 — Prix : 120,00 € HT par mois, facturés le dernier jour du mois.',
    'Article 3 — Durée : un an à compter de la signature, renouvelable.',
    '',
    'Fait à Lyon, en deux exemplaires.',
    '',
    'Le client :',
  ];
  for (const [i, text] of lines.entries()) p.drawText(text, { x: 60, y: 710 - i * 22, size: 12, font });
  const res = await page.request.post('/v1/signature/documents', {
    multipart: { file: { name: 'contrat-entretien.pdf', mimeType: 'application/pdf', buffer: Buffer.from(await pdf.save()) } },
    headers: { Origin: new URL(page.url()).origin },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

test('issue 35, items 1 and 9: the field placer on the drawn page, then the signer’s done page with the signed PDF', async ({ browser }) => {
  await page.setViewportSize(DESKTOP);
  const api = staffApi(page);
  const documentId = await uploadContract();
  const draft = (await api.post('/v1/signature/envelopes', {
    source_kind: 'document',
    source_document_id: documentId,
    subject: 'Contrat d’entretien des parquets',
    signers: [{ email: 'lucie@vitrac.test', full_name: 'Lucie Vitrac', verification_method: 'none' }],
  })) as { id: string; signers: Array<{ id: string }> };
  await open(`/signature/${draft.id}`);
  const fields = card('Champs à remplir');
  await expect(page.locator('.placer-pages')).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 });
  await expect(page.locator('.placer-page canvas')).toHaveCount(1);
  // A signature dropped under « Le client : ».
  const page1 = page.getByRole('region', { name: /Page 1/ });
  await page1.scrollIntoViewIfNeeded();
  const box = (await page1.boundingBox())!;
  await page.getByRole('button', { name: 'Signature', exact: true }).dragTo(page1, { targetPosition: { x: box.width * 0.26, y: box.height * 0.44 } });
  await expect(page1.getByTestId('placed-field')).toHaveCount(1);
  await page.getByRole('button', { name: 'Enregistrer les champs' }).click();
  await expect(page.getByText('1 champ enregistré.')).toBeVisible({ timeout: 30_000 });
  await shoot('placer-champs', fields);

  await api.post(`/v1/signature/envelopes/${draft.id}/send`);
  const link = await signerLink(page, draft.id, draft.signers[0]!.id);
  const signer = await signerPage(browser);
  await signer.goto(link);
  await expect(signer.getByRole('heading', { level: 1 })).toHaveText('Contrat d’entretien des parquets');
  await signer.getByLabel('J’ai lu ce texte et j’accepte de signer électroniquement.').check();
  await signer.getByRole('button', { name: 'Accepter et continuer' }).click();
  await signer.getByRole('button', { name: 'Signer le document' }).click();
  await expect(signer.getByRole('heading', { level: 1, name: 'Document signé par tous' })).toBeVisible();
  await envelopeReaches(page, draft.id, 'completed');
  // Sealed by a job: the page reloaded offers the download once it is done.
  await expect(async () => {
    await signer.goto(link);
    await expect(signer.getByRole('link', { name: 'Télécharger le document signé (PDF)' })).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 30_000, intervals: [500, 1000, 2000] });
  await shoot('signature-terminee', signer);
  await signer.context().close();
});

/**
 * Issue 35, item 7, last: it connects the demo org to a sandbox PA run here (as e2e/einvoicing-feedback.spec.ts does),
 * and disconnects it at the end whatever happens: the other journeys do not expect e-invoicing.
 */
test('issue 35, item 7: the PA connection tested, and a transmitted invoice’s e-invoicing card', async () => {
  await page.setViewportSize(DESKTOP);
  const sandbox = await startSandboxPa({ clients: { 'paraphe-guide': 'guide-secret-0042' } });
  try {
    await open('/settings/einvoicing', 'Facturation électronique');
    await page.getByLabel('Adresse de l’API de la plateforme').fill(sandbox.url);
    await page.getByLabel('Identifiant client').fill('paraphe-guide');
    await page.getByLabel('Secret client').fill('guide-secret-0042');
    await page.getByLabel(/Transmettre les factures aux clients professionnels/).check();
    await page.getByRole('button', { name: 'Tester la connexion' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Connexion réussie' })).toContainText(sandbox.url);
    const checks = page.getByRole('list', { name: 'Étapes du test de connexion' });
    await expect(checks.getByRole('listitem')).toHaveText([/Jeton OAuth.*répond/, /Service Flow.*répond/, /Service Annuaire.*répond/]);
    await shoot('connexion-pa', card('Plateforme agréée'));
    await page.getByRole('button', { name: 'Enregistrer' }).first().click();
    await expect(page.getByText('Plateforme agréée enregistrée.')).toBeVisible();

    // An invoice to a French company, finalized: sent to the PA by the jobs, then delivered (200, 202, 203).
    const invoice = await finalizedInvoice('Entretien mensuel', 12000);
    await open(`/documents/${invoice.id}`);
    const badge = page.locator('.page-header').getByTestId('transmission-badge');
    await expect(async () => {
      await page.reload();
      await expect(badge).toHaveText(/PA : (Transmise|Déposée|Reçue par la plateforme|Mise à disposition)/, { timeout: 2_000 });
    }).toPass({ timeout: 90_000 });
    const einvoicing = page.getByRole('region', { name: 'Facturation électronique' });
    await einvoicing.getByRole('button', { name: 'Actualiser' }).click();
    await expect(einvoicing.getByRole('status')).toContainText('Dernier statut : Mise à disposition.');
    await expect(einvoicing.getByRole('table', { name: 'Cycle de vie de la facture électronique' })).toContainText('203 Mise à disposition');
    await expect(badge).toHaveText('PA : Mise à disposition');
    await shoot('transmission-pa');
  } finally {
    await open('/settings/einvoicing', 'Facturation électronique');
    for (const label of ['Adresse de l’API de la plateforme', 'Adresse du jeton OAuth (facultatif)', 'Identifiant client']) await page.getByLabel(label).fill('');
    await page.getByLabel(/Transmettre les factures aux clients professionnels/).uncheck();
    await page.getByRole('button', { name: 'Enregistrer' }).first().click();
    await expect(page.getByText('Connexion à la plateforme agréée supprimée.')).toBeVisible();
    await sandbox.close();
  }
});
