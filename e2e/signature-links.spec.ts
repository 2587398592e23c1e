import { type Browser, expect, type Page, test } from '@playwright/test';
import { signIn } from './helpers';
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

test('parallel: both signers get their link at once and sign in any order → completed', async ({ browser }) => {
  const envelope = await draft({ routing_mode: 'parallel', signers: [noCode('ana.parallel@client.test', 'Ana Parallèle'), noCode('yann.parallel@client.test', 'Yann Parallèle')] });
  await send(envelope.id);
  const [ana, yann] = await Promise.all(envelope.signers.map((s) => signerLink(staff, envelope.id, s.id)));
  // The second signer first: in parallel nobody waits.
  for (const url of [yann!, ana!]) {
    const signer = await signerPage(browser);
    await signer.goto(url);
    await expect(signer.getByRole('heading', { level: 1 })).toHaveText('Bon de commande');
    await consentAndSign(signer);
    await signer.context().close();
  }
  await envelopeReaches(staff, envelope.id, 'completed');
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
  await signer.reload();
  await expect(signer.getByRole('heading', { level: 1, name: 'Lien expiré' })).toBeVisible();
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
  await expect(signer.getByRole('heading', { level: 1, name: 'Lien expiré' })).toBeVisible();
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
  // The page answers as the API does (issue 34): 410, « Lien expiré » without a script, in French and in English.
  const dead = await signer.goto(urls[1]!);
  expect(dead?.status()).toBe(410);
  expect(dead?.headers()).toMatchObject({ 'referrer-policy': 'no-referrer', 'x-robots-tag': 'noindex, nofollow' });
  await expect(signer.getByRole('heading', { level: 1, name: 'Lien expiré' })).toBeVisible();
  await expectAccessible(signer, 'dead link (410)');
  await signer.getByRole('link', { name: 'English' }).click();
  await expect(signer.getByRole('heading', { level: 1, name: 'Link expired' })).toBeVisible();
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
