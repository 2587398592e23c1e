import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { NextRequest } from 'next/server';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as signRoute from '@/app/api/sign/[token]/sign/route';
import * as signedRoute from '@/app/api/sign/[token]/signed/route';
import { SignView } from '@/app/sign/[token]/sign-view';
import * as unavailableRoute from '@/app/sign/unavailable/route';
import { signatureEnvelopes } from '@/db/schema';
import { LocalStorage, setStorage, sha256Hex } from '@/lib/platform/storage';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { proxy } from '@/proxy';
import { cancelEnvelope } from './lifecycle';
import { sealEnvelope } from './seal-job';
import { consentToSign, declineToSign } from './signer-api';
import { SIGNED_DOWNLOAD_DAYS, type SignerOutcome, signerLinkView } from './signer-outcome';
import { sentEnvelope, tokenOf, uploadedPdf } from './testing/signer';

/*
 * Issue 35, item 9: the signer's done page. A link that no longer signs still says what happened to its own envelope
 * (signed and others to come, completed and sealed with the signed PDF to download, sealing, declined, cancelled,
 * expired), and downloads the signed PDF for SIGNED_DOWNLOAD_DAYS — that envelope's only, for a signer who signed it.
 */
let dir = '';
let org: TestOrg;
let other: TestOrg;
let documentId: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'paraphe-sign-done-'));
  setStorage(new LocalStorage(dir));
  org = await createTestOrg('Atelier Fin');
  other = await createTestOrg('Autre Atelier');
  documentId = await uploadedPdf(org);
});
afterAll(async () => {
  setStorage(undefined);
  if (dir) await rm(dir, { recursive: true, force: true });
});

const ctx = { ip: '203.0.113.9', userAgent: 'vitest-done' };
const UA = { 'user-agent': 'vitest-done', 'x-forwarded-for': '203.0.113.9' };
const signAs = (t: string) => call(signRoute.POST, 'POST', `/api/sign/${t}/sign`, { params: { token: t }, headers: UA, body: { signature: { kind: 'typed', value: 'Signé' } } });
const download = (t: string, headers: Record<string, string> = {}) =>
  signedRoute.GET(new Request(`http://localhost:3000/api/sign/${t}/signed`, { headers: { ...UA, ...headers } }), { params: Promise.resolve({ token: t }) });
const envelopeRow = async (db: TestOrg['db'], id: string) => (await db.select().from(signatureEnvelopes).where(eq(signatureEnvelopes.id, id)))[0]!;
const outcome = async (t: string): Promise<SignerOutcome | null> => {
  const view = await signerLinkView(org.db, t);
  return view.view === 'done' ? view.outcome : null;
};

/** What the server answers for GET /sign/<token>: the proxy's decision, then the unavailable page when it rewrote there. */
async function visit(token: string, lang?: 'en') {
  const res = await proxy(new NextRequest(`http://localhost:3000/sign/${token}${lang ? `?lang=${lang}` : ''}`));
  const rewrite = res.headers.get('x-middleware-rewrite');
  if (!rewrite) return { status: res.status, rewritten: false, html: '' };
  const page = await unavailableRoute.GET(new Request(rewrite, { headers: { 'x-paraphe-sign-unavailable': new URL(rewrite).searchParams.toString() } }));
  return { status: page.status, rewritten: true, html: await page.text() };
}

/** The page as the server renders it for a link that no longer signs (what a browser without script shows). */
const render = (token: string, o: SignerOutcome, lang: 'fr' | 'en' = 'fr') =>
  renderToStaticMarkup(createElement(SignView, { token, initialLang: lang, initialEnd: o.kind === 'signed' || o.kind === 'completed' ? 'signed' : 'expired', initialOutcome: o }));

/** Two sequential signers with no code, a date field each (stored as the ISO day at sign). */
async function twoSigners(email: string) {
  const { envelopeId, signerIds } = await sentEnvelope(
    org,
    documentId,
    [
      { email: `a.${email}`, full_name: 'Anne Première', verification_method: 'none', routing_order: 0, fields: ['signature', 'date'] },
      { email: `b.${email}`, full_name: 'Bruno Second', verification_method: 'none', routing_order: 1, fields: ['signature'] },
    ],
    { subject: 'Contrat de fin' },
  );
  return { envelopeId, signerIds };
}

async function signWith(token: string) {
  await consentToSign(org.db, token, ctx);
  const res = await signAs(token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { outcome: SignerOutcome | null };
}

describe('the done page', () => {
  it('signed, one signature to come: the count (never who), the page 200 without the download; the file 409', async () => {
    const { signerIds } = await twoSigners('wait@client.test');
    const first = (await tokenOf(org, signerIds[0]!))!;
    const state = await signWith(first);
    expect(state.outcome).toEqual({ kind: 'signed', remaining: 1 });
    expect(await outcome(first)).toEqual({ kind: 'signed', remaining: 1 });
    expect(await visit(first)).toMatchObject({ status: 200, rewritten: false });
    const html = render(first, { kind: 'signed', remaining: 1 });
    expect(html).toContain('Document signé');
    expect(html).toContain('Il reste 1 signature à recueillir');
    expect(html).not.toContain('Bruno');
    expect(html).not.toContain('/signed');
    expect(render(first, { kind: 'signed', remaining: 2 }, 'en')).toContain('2 signatures are still to come');
    const res = await download(first);
    expect(res.status).toBe(409);
    expect((await res.json()).code).toBe('signed_document_unavailable');
  });

  it('completed: sealing (a refresh link, 409 evidence_pending), then sealed: the signed PDF from both links, for 30 days', async () => {
    const { envelopeId, signerIds } = await twoSigners('done@client.test');
    const first = (await tokenOf(org, signerIds[0]!))!;
    await signWith(first);
    const second = (await tokenOf(org, signerIds[1]!))!;
    const state = await signWith(second);
    // The last signature completes the envelope; the seal job has not run yet.
    expect(state.outcome).toEqual({ kind: 'completed', document: 'sealing', download_until: null });
    const sealing = render(second, state.outcome!);
    expect(sealing).toContain('Document signé par tous');
    expect(sealing).toContain('en cours de préparation');
    expect(sealing).toContain('href="?lang=fr"');
    expect((await download(second)).status).toBe(409);
    expect((await (await download(first)).json()).code).toBe('evidence_pending');

    expect(await sealEnvelope(org.db, envelopeId)).toBe('sealed');
    const row = await envelopeRow(org.db, envelopeId);
    const until = new Date(row.completed_at!.getTime() + SIGNED_DOWNLOAD_DAYS * 86_400_000);
    // Both links are dead for signing (410 from the API) but open the done page (200) with the download.
    for (const t of [first, second]) {
      expect(await outcome(t)).toEqual({ kind: 'completed', document: 'ready', download_until: until.toISOString() });
      expect(await visit(t)).toMatchObject({ status: 200, rewritten: false });
      const res = await download(t);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      expect(res.headers.get('content-disposition')).toContain('attachment');
      expect(sha256Hex(Buffer.from(await res.arrayBuffer()))).toBe(row.signed_document_sha256);
      expect((await download(t, { 'if-none-match': res.headers.get('etag')! })).status).toBe(304);
    }
    const ready = render(first, (await outcome(first))!);
    expect(ready).toContain(`href="/api/sign/${first}/signed"`);
    expect(ready).toContain('Télécharger le document signé (PDF)');
    expect(ready).toMatch(/jusqu’au \d{2}\/\d{2}\/\d{4}/);
    expect(render(first, (await outcome(first))!, 'en')).toContain('Download the signed document (PDF)');

    // The envelope's own expiry, passed after completion, changes nothing.
    await org.db.update(signatureEnvelopes).set({ expires_at: new Date(Date.now() - 1000) }).where(eq(signatureEnvelopes.id, envelopeId));
    expect(await outcome(first)).toMatchObject({ kind: 'completed', document: 'ready' });
    expect((await download(first)).status).toBe(200);

    // Past the period: the page says it is over, the file 410.
    await org.db
      .update(signatureEnvelopes)
      .set({ completed_at: new Date(Date.now() - (SIGNED_DOWNLOAD_DAYS + 1) * 86_400_000) })
      .where(eq(signatureEnvelopes.id, envelopeId));
    expect((await outcome(first))?.kind === 'completed' && (await outcome(first))).toMatchObject({ document: 'closed' });
    const late = await download(first);
    expect(late.status).toBe(410);
    expect((await late.json()).code).toBe('link_expired');
  });

  it('the file is the link’s own envelope’s: an unknown link, a signer who did not sign, another org’s envelope → 404', async () => {
    expect((await download('x'.repeat(43))).status).toBe(404);
    expect((await download('short')).status).toBe(404);
    // A signer whose turn has come but who has not signed (the first of a new envelope).
    const { signerIds } = await twoSigners('notyet@client.test');
    const unsigned = (await tokenOf(org, signerIds[0]!))!;
    expect((await download(unsigned)).status).toBe(404);
    // Two completed, sealed envelopes of two orgs: each link downloads its own file, never the other's.
    const otherDoc = await uploadedPdf(other);
    const mine = await sentEnvelope(org, documentId, [{ email: 'solo.mine@client.test', verification_method: 'none', fields: ['signature'] }]);
    const theirs = await sentEnvelope(other, otherDoc, [{ email: 'solo.theirs@client.test', verification_method: 'none', fields: ['signature'] }]);
    const mineToken = (await tokenOf(org, mine.signerIds[0]!))!;
    const theirToken = (await tokenOf(other, theirs.signerIds[0]!))!;
    await signWith(mineToken);
    await consentToSign(other.db, theirToken, ctx);
    expect((await signAs(theirToken)).status).toBe(200);
    await sealEnvelope(org.db, mine.envelopeId);
    await sealEnvelope(other.db, theirs.envelopeId);
    const mineRow = await envelopeRow(org.db, mine.envelopeId);
    const theirRow = await envelopeRow(other.db, theirs.envelopeId);
    expect(mineRow.signed_document_sha256).not.toBe(theirRow.signed_document_sha256);
    expect(sha256Hex(Buffer.from(await (await download(mineToken)).arrayBuffer()))).toBe(mineRow.signed_document_sha256);
    expect(sha256Hex(Buffer.from(await (await download(theirToken)).arrayBuffer()))).toBe(theirRow.signed_document_sha256);
  });

  it('a seal that failed for good: « plus de temps que prévu », no download; no positioned field: the proof was e-mailed', async () => {
    const failed = await sentEnvelope(org, documentId, [{ email: 'late@client.test', verification_method: 'none', fields: ['signature'] }]);
    const t = (await tokenOf(org, failed.signerIds[0]!))!;
    await signWith(t);
    await org.db.update(signatureEnvelopes).set({ evidence_failed_at: new Date() }).where(eq(signatureEnvelopes.id, failed.envelopeId));
    expect(await outcome(t)).toEqual({ kind: 'completed', document: 'delayed', download_until: null });
    expect(render(t, (await outcome(t))!)).toContain('plus de temps que prévu');
    expect((await (await download(t)).json()).code).toBe('evidence_failed');

    const bare = await sentEnvelope(org, documentId, [{ email: 'bare@client.test', verification_method: 'none' }]);
    const b = (await tokenOf(org, bare.signerIds[0]!))!;
    await signWith(b);
    expect(await sealEnvelope(org.db, bare.envelopeId)).toBe('proof_only');
    expect(await outcome(b)).toEqual({ kind: 'completed', document: 'proof_only', download_until: null });
    expect((await (await download(b)).json()).code).toBe('signed_document_unavailable');
  });
});

describe('a link that ended otherwise: 410, and the page says why', () => {
  it('declined: « Signature refusée » for who declined, « … par un signataire » for the other', async () => {
    const { signerIds } = await sentEnvelope(
      org,
      documentId,
      [
        { email: 'x.decline@client.test', verification_method: 'none' },
        { email: 'y.decline@client.test', verification_method: 'none' },
      ],
      { routing_mode: 'parallel' },
    );
    const [x, y] = [(await tokenOf(org, signerIds[0]!))!, (await tokenOf(org, signerIds[1]!))!];
    const state = await declineToSign(org.db, x, 'Non.', ctx);
    expect(state.outcome).toEqual({ kind: 'declined', by_you: true });
    expect(await outcome(y)).toEqual({ kind: 'declined', by_you: false });
    const mine = await visit(x);
    expect(mine.status).toBe(410);
    expect(mine.html).toContain('>Signature refusée</h1>');
    const theirs = await visit(y);
    expect(theirs.status).toBe(410);
    expect(theirs.html).toContain('>Signature refusée par un signataire</h1>');
    expect((await visit(y, 'en')).html).toContain('>Declined by a signer</h1>');
    expect((await download(x)).status).toBe(404);
  });

  it('cancelled: « Demande annulée »; expired: « Demande expirée »; a signer who had signed gets no file', async () => {
    const cancelled = await twoSigners('cancel@client.test');
    const c = (await tokenOf(org, cancelled.signerIds[0]!))!;
    await signWith(c);
    await cancelEnvelope(org.db, org.org.id, cancelled.envelopeId, { ip: null, user_agent: null });
    expect(await outcome(c)).toEqual({ kind: 'cancelled' });
    const page = await visit(c);
    expect(page.status).toBe(410);
    expect(page.html).toContain('>Demande annulée</h1>');
    expect((await visit(c, 'en')).html).toContain('>Request cancelled</h1>');
    expect((await download(c)).status).toBe(410);

    const lapsed = await twoSigners('lapse@client.test');
    const e = (await tokenOf(org, lapsed.signerIds[0]!))!;
    await org.db.update(signatureEnvelopes).set({ expires_at: new Date(Date.now() - 1000) }).where(eq(signatureEnvelopes.id, lapsed.envelopeId));
    expect(await outcome(e)).toEqual({ kind: 'expired' });
    const gone = await visit(e);
    expect(gone.status).toBe(410);
    expect(gone.html).toContain('>Demande expirée</h1>');
  });
});
