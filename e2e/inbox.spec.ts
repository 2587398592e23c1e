import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { startSandboxPa } from '@/lib/domain/einvoicing/sandbox/server';
import { PHONE, phoneOverflow, signIn } from './helpers';

/**
 * Issue 17 item 8: the inbox of received invoices, on a phone. A sandbox PA runs in this process; the demo org is
 * connected to it (pdp_config through the API, e-invoicing of its own invoices left off) and listed in its directory;
 * a supplier's CII and an unreadable file are delivered, « Relever maintenant » fetches them, and staff refuse one
 * with a reason. axe checks the list and the invoice's page at that size.
 */
const SIREN = '732829320';
const CLIENT_ID = 'e2e-inbox';

let sandbox: Awaited<ReturnType<typeof startSandboxPa>>;
test.beforeAll(async () => {
  sandbox = await startSandboxPa();
  sandbox.pa.state.registerLine(CLIENT_ID, { siren: SIREN, siret: null, routingCode: null, dateFrom: '2026-01-01' });
});
test.afterAll(() => sandbox.close());

async function noViolations(page: Page, where: string) {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).exclude('iframe').analyze();
  expect(violations.flatMap((v) => v.nodes.map((n) => `${where} · ${v.id} ${n.target.join(' ')}`))).toEqual([]);
}

test('received invoices: fetched now, read beside the PDF, refused with a reason — at 390 px', async ({ browser }) => {
  const page = await (await browser.newContext({ viewport: PHONE })).newPage();
  await signIn(page);
  const origin = new URL(page.url()).origin;
  const put = await page.request.put('/v1/invoice/settings', {
    data: { pdp_config: { provider: 'afnor', base_url: sandbox.url, client_id: CLIENT_ID, client_secret: 'sandbox-secret-e2e' } },
    headers: { Origin: origin },
  });
  expect(put.status(), await put.text()).toBe(200);

  const cii = (await readFile('lib/domain/einvoicing/parse/fixtures/samples/factur-x-en16931.xml', 'utf8')).replaceAll('F20260023', 'FOURN-2026-042');
  sandbox.pa.state.inject(SIREN, Buffer.from(cii), 'application/xml', 'CII', null);
  sandbox.pa.state.inject(SIREN, Buffer.from('<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><cut'), 'application/xml', 'UBL', null);

  await page.goto('/invoices/received');
  await expect(page.getByRole('heading', { level: 1, name: 'Factures reçues' })).toBeVisible();
  await page.getByRole('button', { name: 'Relever maintenant' }).click();
  // Each file is read, and the CII's readable PDF rendered, in the sandbox's worker, whose first run of the process
  // loads pdf-lib, libxml2, react-pdf and the fonts (docs/security.md « Untrusted files »): seconds on a loaded machine.
  await expect(page.locator('main').getByRole('status')).toContainText('2 nouvelles factures reçues', { timeout: 30_000 });
  const table = page.getByRole('table', { name: 'Factures reçues' });
  await expect(table.getByRole('row')).toHaveCount(3);
  await expect(table).toContainText('FOURN-2026-042');
  await expect(table).toContainText('Illisible');
  expect((await phoneOverflow(page)).by).toBeLessThanOrEqual(0);
  await noViolations(page, '/invoices/received');

  // The unreadable one: no PDF, the parser's reason shown.
  await table.getByRole('link', { name: 'Voir le fichier reçu' }).click();
  await expect(page.getByText('Le fichier n’a pas pu être lu')).toBeVisible();
  await expect(page.getByText('Pas de PDF lisible')).toBeVisible();
  await page.getByRole('link', { name: '← Factures reçues' }).click();

  const pdfLoaded = page.waitForResponse((r) => /\/v1\/invoices\/inbound\/[^/]+\/pdf$/.test(new URL(r.url()).pathname));
  await table.getByRole('link', { name: 'FOURN-2026-042' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Facture reçue FOURN-2026-042');
  await expect(page.locator('iframe[title^="PDF de la facture reçue"]')).toBeVisible();
  const pdf = await pdfLoaded;
  expect([pdf.status(), pdf.headers()['content-type']]).toEqual([200, 'application/pdf']);
  await expect(page.getByRole('table', { name: 'Lignes de la facture reçue' })).toBeVisible();
  // Issue 35 item 14: a line's allowances and charges under it, the document's between the lines and the total HT.
  await expect(page.getByRole('table', { name: 'Lignes de la facture reçue' })).toContainText(/Remise : REMISE VOLUME \(1 %\)\s*\(-1,00\s€\)/);
  await expect(page.getByTestId('received-recap')).toHaveText(/^Total des lignes95,00\s€.*Remise : REMISE COMMERCIALE \(5 %, TVA 20 %\)-5,00\s€.*Frais : FRAIS DEPLACEMENT \(10 %, TVA 20 %\)\+10,00\s€.*Total HT100,00\s€$/);
  expect((await phoneOverflow(page)).by).toBeLessThanOrEqual(0);
  await noViolations(page, '/invoices/received/[id]');

  // A refusal needs its reason from the list: refused first, then sent.
  await page.getByRole('button', { name: 'Refuser la facture' }).click();
  await expect(page.locator('main').getByRole('alert')).toContainText('La facture n’a pas été refusée');
  await page.getByLabel('Motif du refus').selectOption({ label: 'Montant total erroné' });
  await page.getByLabel('Précisions (facultatif)').fill('Le total ne correspond pas au bon de commande.');
  await page.getByRole('button', { name: 'Refuser la facture' }).click();
  // Sent: the page shows the answer in its history, and no action any more.
  await expect(page.getByRole('list', { name: 'Réponses envoyées' })).toContainText('Montant total erroné');
  await expect(page.getByText('La réponse est définitive.')).toBeVisible();
  // What the PA received: one CDAR flow, 210 with its reason code.
  const cdars = sandbox.pa.state.flows.filter((f) => f.syntax === 'CDAR');
  expect(cdars).toHaveLength(1);
  expect(cdars[0]!.file.toString()).toContain('MONTANTTOTAL_ERR');
  await page.context().close();
});
