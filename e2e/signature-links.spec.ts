import { readFile } from 'node:fs/promises';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { PHONE, signIn } from './helpers';
import { codeFor, envelopeReaches, expectAccessible, signerLink, signerPage, staffApi, tokenOf, uploadDocument } from './signature-setup';

/*
 * Issue 18: the signer's links in their other lives — a parallel envelope, a decline, an expiry and its reactivation,
 * a cancel that kills the links, a code locked after 5 failures, an unknown link. One staff session and one uploaded
 * document for the file; signers with no code where the code is not the point (fast).
 */
let staff: Page;
let documentId: string;

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  staff = await (await browser.newContext()).newPage();
  await signIn(staff);
  documentId = await uploadDocument(staff, 'Bon de commande');
});
test.afterAll(() => staff.context().close());

const draft = async (body: Record<string, unknown>) =>
  (await staffApi(staff).post('/v1/signature/envelopes', { source_kind: 'document', source_document_id: documentId, subject: 'Bon de commande', ...body })) as {
    id: string;
    signers: Array<{ id: string; otp_attempts: number }>;
  };
const send = (id: string, path = 'send', body: unknown = {}) => staffApi(staff).post(`/v1/signature/envelopes/${id}/${path}`, body);
const noCode = (email: string, full_name: string) => ({ email, full_name, verification_method: 'none' });

/** Consent, then a typed signature: a signer with no code. */
async function consentAndSign(signer: Page) {
  await signer.getByLabel('J’ai lu ce texte et j’accepte de signer électroniquement.').check();
  await signer.getByRole('button', { name: 'Accepter et continuer' }).click();
  await signer.getByRole('button', { name: 'Signer le document' }).click();
  await expect(signer.getByRole('heading', { level: 1, name: 'Document signé' })).toBeVisible();
}

test('parallel: both signers get their link at once and sign in any order → completed; the done page offers the signed PDF', async ({ browser }) => {
  const envelope = await draft({ routing_mode: 'parallel', signers: [noCode('ana.parallel@client.test', 'Ana Parallèle'), noCode('yann.parallel@client.test', 'Yann Parallèle')] });
  // A signature box each: an envelope without positioned fields has no signed PDF (only the proof).
  const box = (signer_id: string, y: number) => ({ signer_id, type: 'signature', page: 1, x: 0.1, y, width: 0.3, height: 0.06, required: true, label: 'Signature' });
  await staffApi(staff).put(`/v1/signature/envelopes/${envelope.id}/fields`, { fields: envelope.signers.map((s, i) => box(s.id, 0.6 + i * 0.1)) });
  await send(envelope.id);
  const [ana, yann] = await Promise.all(envelope.signers.map((s) => signerLink(staff, envelope.id, s.id)));
  // The second signer first: in parallel nobody waits. Issue 35: the done page says how many signatures remain.
  const first = await signerPage(browser);
  await first.goto(yann!);
  await expect(first.getByRole('heading', { level: 1 })).toHaveText('Bon de commande');
  await consentAndSign(first);
  await expect(first.getByText('Il reste 1 signature à recueillir.')).toBeVisible();
  await expect(first.getByRole('link', { name: 'Télécharger le document signé (PDF)' })).toHaveCount(0);
  await expectAccessible(first, 'signed, one to come');

  const last = await signerPage(browser);
  await last.goto(ana!);
  await consentAndSign(last);
  await expect(last.getByRole('heading', { level: 1, name: 'Document signé par tous' })).toBeVisible();
  await envelopeReaches(staff, envelope.id, 'completed');
  // Sealed by the job: the page's link (or the reload it offers) then shows the download, on both links.
  await expect(async () => {
    await last.goto(ana!);
    await expect(last.getByRole('link', { name: 'Télécharger le document signé (PDF)' })).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 30_000, intervals: [500, 1000, 2000] });
  await expectAccessible(last, 'completed, signed PDF to download');
  const [file] = await Promise.all([last.waitForEvent('download'), last.getByRole('link', { name: 'Télécharger le document signé (PDF)' }).click()]);
  expect(file.suggestedFilename()).toBe('Bon de commande - signé.pdf');
  const bytes = await readFile(await file.path());
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
  // The same from the first signer's link, without a script (the page is rendered by the server), in English.
  const noScript = await (await browser.newContext({ javaScriptEnabled: false, viewport: PHONE })).newPage();
  const res = await noScript.goto(`${yann!}?lang=en`);
  expect(res?.status()).toBe(200);
  await expect(noScript.getByRole('heading', { level: 1, name: 'Document signed by everyone' })).toBeVisible();
  const href = await noScript.getByRole('link', { name: 'Download the signed document (PDF)' }).getAttribute('href');
  const pdf = await noScript.request.get(href!);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  // Another link's file is never reached: a wrong token is a 404.
  expect((await noScript.request.get(`/api/sign/${'x'.repeat(43)}/signed`)).status()).toBe(404);
  for (const p of [first, last, noScript]) await p.context().close();
});

test('decline: the signer says why → declined page, the envelope is declined, the link is dead', async ({ browser }) => {
  const envelope = await draft({
    signers: [
      { ...noCode('dora.decline@client.test', 'Dora Refus'), routing_order: 0 },
      { ...noCode('eli.decline@client.test', 'Eli Suivant'), routing_order: 1 },
    ],
  });
  await send(envelope.id);
  const url = await signerLink(staff, envelope.id, envelope.signers[0]!.id);
  const signer = await signerPage(browser);
  await signer.goto(url);
  await signer.getByText('Je ne souhaite pas signer').click();
  await signer.getByRole('button', { name: 'Refuser de signer' }).click();
  await expect(signer.getByText('Indiquez le motif du refus.')).toBeVisible();
  await expectAccessible(signer, 'decline form');
  await signer.getByLabel('Motif du refus').fill('Le montant ne correspond pas au devis.');
  await signer.getByRole('button', { name: 'Refuser de signer' }).click();
  await expect(signer.getByRole('heading', { level: 1, name: 'Signature refusée' })).toBeVisible();
  await expectAccessible(signer, 'declined page');

  const declined = await envelopeReaches(staff, envelope.id, 'declined');
  expect(declined.signers.map((s) => (s as { status: string }).status)).toEqual(['declined', 'waiting']);
  expect((await signer.request.get(`/api/sign/${tokenOf(url)}`)).status()).toBe(410);
  // The link then says what happened (issue 35), still with 410.
  expect((await signer.reload())?.status()).toBe(410);
  await expect(signer.getByRole('heading', { level: 1, name: 'Signature refusée' })).toBeVisible();
  await signer.context().close();
});

test('expiry, then reactivation: the expired link says so, the fresh one signs', async ({ browser }) => {
  // The expiry job runs every 5 minutes; reactivating an envelope past its expiry expires it first (lib/domain/signature
  // lifecycle.ts expireLocked), so the owner never waits for the job, nor does this test.
  const envelope = await draft({ expires_at: new Date(Date.now() + 4_000).toISOString(), signers: [noCode('eve.expiry@client.test', 'Ève Expiration')] });
  await send(envelope.id);
  const url = await signerLink(staff, envelope.id, envelope.signers[0]!.id);
  const signer = await signerPage(browser);
  await signer.goto(url);
  await expect(signer.getByRole('heading', { level: 1 })).toHaveText('Bon de commande');
  // Past its expiry the link refuses at once (410), and the page says so.
  await expect.poll(async () => (await signer.request.get(`/api/sign/${tokenOf(url)}`)).status(), { timeout: 10_000 }).toBe(410);
  await signer.reload();
  await expect(signer.getByRole('heading', { level: 1, name: 'Demande expirée' })).toBeVisible();
  await expectAccessible(signer, 'expired page');

  await send(envelope.id, 'reactivate', { expires_at: new Date(Date.now() + 86_400_000).toISOString() });
  const timeline = (await staffApi(staff).get(`/v1/signature/envelopes/${envelope.id}/timeline`)) as { data: Array<{ event_type: string }> };
  const types = timeline.data.map((e) => e.event_type);
  expect(types).toEqual(expect.arrayContaining(['envelope.expired', 'envelope.reactivated']));
  expect(types.indexOf('envelope.expired')).toBeLessThan(types.indexOf('envelope.reactivated'));
  const fresh = await signerLink(staff, envelope.id, envelope.signers[0]!.id);
  expect(tokenOf(fresh)).not.toBe(tokenOf(url));
  expect((await signer.request.get(`/api/sign/${tokenOf(url)}`)).status()).toBe(410);
  await signer.goto(fresh);
  await consentAndSign(signer);
  await envelopeReaches(staff, envelope.id, 'completed');
  await signer.context().close();
});

test('cancel kills the links: the open page cannot act any more, and the link is dead', async ({ browser }) => {
  const envelope = await draft({ routing_mode: 'parallel', signers: [noCode('carl.cancel@client.test', 'Carl Annule'), noCode('cora.cancel@client.test', 'Cora Annule')] });
  await send(envelope.id);
  const urls = await Promise.all(envelope.signers.map((s) => signerLink(staff, envelope.id, s.id)));
  const signer = await signerPage(browser);
  await signer.goto(urls[0]!);
  await expect(signer.getByRole('heading', { level: 1 })).toHaveText('Bon de commande');
  await send(envelope.id, 'cancel');
  // The page still open: its next step is refused, and it says the link no longer works.
  await signer.getByLabel('J’ai lu ce texte et j’accepte de signer électroniquement.').check();
  await signer.getByRole('button', { name: 'Accepter et continuer' }).click();
  await expect(signer.getByRole('heading', { level: 1, name: 'Lien expiré' })).toBeVisible();
  for (const url of urls) expect((await signer.request.get(`/api/sign/${tokenOf(url!)}`)).status()).toBe(410);
  // The page answers as the API does (issue 34): 410 without a script, in French and in English, saying why (issue 35).
  const dead = await signer.goto(urls[1]!);
  expect(dead?.status()).toBe(410);
  expect(dead?.headers()).toMatchObject({ 'referrer-policy': 'no-referrer', 'x-robots-tag': 'noindex, nofollow' });
  await expect(signer.getByRole('heading', { level: 1, name: 'Demande annulée' })).toBeVisible();
  await expectAccessible(signer, 'dead link (410)');
  await signer.getByRole('link', { name: 'English' }).click();
  await expect(signer.getByRole('heading', { level: 1, name: 'Request cancelled' })).toBeVisible();
  expect(new URL(signer.url()).pathname).toBe(new URL(urls[1]!).pathname);
  await signer.context().close();
});

test('five wrong codes lock the signer: 423, the page says so, the right code no longer helps', async ({ browser }) => {
  const email = 'luc.lock@client.test';
  const envelope = await draft({ signers: [{ email, full_name: 'Luc Verrou', verification_method: 'email_otp' }] });
  await send(envelope.id);
  const url = await signerLink(staff, envelope.id, envelope.signers[0]!.id);
  const signer = await signerPage(browser);
  await signer.goto(url);
  await signer.getByLabel('J’ai lu ce texte et j’accepte de signer électroniquement.').check();
  await signer.getByRole('button', { name: 'Accepter et continuer' }).click();
  await signer.getByRole('button', { name: 'Recevoir le code' }).click();
  const code = await codeFor(staff, email);
  const wrong = code === '000000' ? '111111' : '000000';
  const verify = signer.getByRole('region', { name: 'Vérifier votre identité' });
  const input = verify.getByLabel('Code à 6 chiffres');
  for (let i = 1; i <= 4; i++) {
    await input.fill(wrong);
    await verify.getByRole('button', { name: 'Vérifier le code' }).click();
    await expect(verify.getByRole('alert')).toHaveText('Code incorrect. Vérifiez les 6 chiffres reçus.');
  }
  await input.fill(wrong);
  await verify.getByRole('button', { name: 'Vérifier le code' }).click();
  await expect(verify.getByRole('alert')).toHaveText('Trop d’essais incorrects : la signature est bloquée. Contactez l’expéditeur.');
  await expect(verify.getByRole('button', { name: 'Vérifier le code' })).toBeDisabled();
  await expect(verify.getByRole('button', { name: 'Renvoyer un code' })).toBeDisabled();
  await expectAccessible(signer, 'locked');
  // The right code, straight to the API: still locked.
  const res = await signer.request.post(`/api/sign/${tokenOf(url)}/code/verify`, { data: { code }, headers: { Origin: new URL(url).origin } });
  expect(res.status()).toBe(423);
  expect((await res.json()).code).toBe('signer_locked');
  const after = (await staffApi(staff).get(`/v1/signature/envelopes/${envelope.id}`)) as { signers: Array<{ otp_attempts: number }> };
  expect(after.signers[0]!.otp_attempts).toBe(5);
  await signer.context().close();
});

test('an unknown link: 404 from the API and from the page, which says so in French and in English', async ({ browser }) => {
  const signer = await signerPage(browser);
  const token = 'x'.repeat(43);
  expect((await signer.request.get(`/api/sign/${token}`)).status()).toBe(404);
  const res = await signer.goto(`/sign/${token}`);
  expect(res?.status()).toBe(404);
  expect(res?.headers()).toMatchObject({ 'referrer-policy': 'no-referrer', 'x-robots-tag': 'noindex, nofollow' });
  await expect(signer.getByRole('heading', { level: 1, name: 'Lien de signature introuvable' })).toBeVisible();
  await expect(signer.getByRole('heading', { level: 2, name: 'Signing link not found' })).toBeVisible();
  await expectAccessible(signer, 'unknown link');
  await signer.context().close();
});
