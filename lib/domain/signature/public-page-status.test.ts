import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { NextRequest } from 'next/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as unavailableRoute from '@/app/sign/unavailable/route';
import { signatureEnvelopes } from '@/db/schema';
import { LocalStorage, setStorage } from '@/lib/platform/storage';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { proxy } from '@/proxy';
import { createForm, deleteForm, setFormActive } from './forms';
import { cancelEnvelope } from './lifecycle';
import { sentEnvelope, tokenOf, uploadedPdf } from './testing/signer';

/*
 * Issue 34: the public signature pages answer with the status the API gives the same link. proxy.ts decides it and
 * rewrites a dead link (410) or an unknown or deleted form (404, 410) to app/sign/unavailable, which writes the page
 * with that status; a live one goes on to its page. Each request here runs the proxy, then the route it rewrote to.
 */
let dir = '';
let org: TestOrg;
let documentId: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'paraphe-sign-status-'));
  setStorage(new LocalStorage(dir));
  org = await createTestOrg('Atelier Statut');
  documentId = await uploadedPdf(org);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** What the server answers for GET `path`: the proxy's decision, then the unavailable page when it rewrote there. */
async function visit(pathname: string, headers: Record<string, string> = {}) {
  const res = await proxy(new NextRequest(`http://localhost:3000${pathname}`, { headers }));
  const rewrite = res.headers.get('x-middleware-rewrite');
  if (!rewrite) return { status: res.status, next: res.headers.get('x-middleware-next') === '1', html: '', res };
  expect(new URL(rewrite).pathname).toBe('/sign/unavailable');
  const page = await unavailableRoute.GET(new Request(rewrite, { headers }));
  return { status: page.status, next: false, html: await page.text(), res: page, proxied: res };
}

const liveSigner = async (email: string) => {
  const { envelopeId, signerIds } = await sentEnvelope(org, documentId, [{ email, full_name: 'Zoé Statut', verification_method: 'none' }]);
  return { envelopeId, token: (await tokenOf(org, signerIds[0]!))! };
};

describe('/sign/forms/<slug>', () => {
  const newForm = () => createForm(org.db, org.org.id, { title: 'Règlement intérieur', source_document_id: documentId, verification_method: 'email_otp' } as never);

  it('a live form goes on to its page (200), a closed one too: it says so there', async () => {
    const form = await newForm();
    expect(await visit(`/sign/forms/${form.slug}`)).toMatchObject({ status: 200, next: true });
    expect(await visit(`/sign/forms/${form.slug}/verify?s=x`)).toMatchObject({ status: 200, next: true });
    await setFormActive(org.db, org.org.id, form.id, false);
    expect(await visit(`/sign/forms/${form.slug}`)).toMatchObject({ status: 200, next: true });
  });

  it('an unknown slug: 404 with « Formulaire introuvable », in English when asked', async () => {
    const fr = await visit('/sign/forms/AAAAAAAAAAAAAAAAAAAAAA');
    expect(fr.status).toBe(404);
    expect(fr.html).toContain('<h1>Formulaire introuvable</h1>');
    expect(fr.html).toContain('lang="fr"');
    expect(fr.res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(fr.proxied?.headers.get('referrer-policy')).toBe('no-referrer');
    expect(fr.proxied?.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    const en = await visit('/sign/forms/AAAAAAAAAAAAAAAAAAAAAA?lang=en');
    expect(en.status).toBe(404);
    expect(en.html).toContain('<h1>Form not found</h1>');
    const browser = await visit('/sign/forms/not-a-slug/verify?s=1', { 'accept-language': 'en-GB,en;q=0.9' });
    expect(browser.status).toBe(404);
    expect(browser.html).toContain('Form not found');
  });

  it('a deleted form: 410, the same page, on the form and its code page', async () => {
    const form = await newForm();
    await deleteForm(org.db, org.org.id, form.id);
    const gone = await visit(`/sign/forms/${form.slug}`);
    expect(gone.status).toBe(410);
    expect(gone.html).toContain('<h1>Formulaire introuvable</h1>');
    expect(gone.html).toContain('.pay-page');
    expect(gone.html).toContain('name="viewport"');
    expect((await visit(`/sign/forms/${form.slug}/verify?s=x&lang=en`)).status).toBe(410);
  });
});

describe('/sign/<token>', () => {
  it('a live link goes on to its page (200)', async () => {
    const { token } = await liveSigner('live.status@client.test');
    expect(await visit(`/sign/${token}`)).toMatchObject({ status: 200, next: true });
  });

  it('an unknown link goes on to its page, whose notFound() answers 404 in both languages', async () => {
    expect(await visit(`/sign/${'x'.repeat(43)}`)).toMatchObject({ status: 200, next: true });
    expect(await visit('/sign/short')).toMatchObject({ status: 200, next: true });
  });

  it('a cancelled envelope’s link: 410 « Demande annulée » (issue 35), in English when asked, with the language switch', async () => {
    const { envelopeId, token } = await liveSigner('cancel.status@client.test');
    await cancelEnvelope(org.db, org.org.id, envelopeId, { ip: null, user_agent: null });
    const fr = await visit(`/sign/${token}`);
    expect(fr.status).toBe(410);
    expect(fr.html).toContain('>Demande annulée</h1>');
    expect(fr.html).toContain('href="?lang=en"');
    expect(fr.res.headers.get('cache-control')).toBe('no-store');
    const en = await visit(`/sign/${token}?lang=en`);
    expect(en.status).toBe(410);
    expect(en.html).toContain('>Request cancelled</h1>');
  });

  it('an expired envelope’s link, and the link of a signer who did not sign a completed one: 410', async () => {
    const expired = await liveSigner('expired.status@client.test');
    await org.db.update(signatureEnvelopes).set({ expires_at: new Date(Date.now() - 1000) }).where(eq(signatureEnvelopes.id, expired.envelopeId));
    expect((await visit(`/sign/${expired.token}`)).status).toBe(410);
    const signed = await liveSigner('signed.status@client.test');
    await org.db.update(signatureEnvelopes).set({ status: 'completed' }).where(eq(signatureEnvelopes.id, signed.envelopeId));
    expect((await visit(`/sign/${signed.token}`)).status).toBe(410);
  });

  it('only GET and HEAD are looked at; the API and a direct visit of the unavailable page are left alone', async () => {
    const { envelopeId, token } = await liveSigner('post.status@client.test');
    await cancelEnvelope(org.db, org.org.id, envelopeId, { ip: null, user_agent: null });
    const post = await proxy(new NextRequest(`http://localhost:3000/sign/${token}`, { method: 'POST' }));
    expect(post.headers.get('x-middleware-rewrite')).toBeNull();
    expect((await proxy(new NextRequest(`http://localhost:3000/api/sign/${token}`))).headers.get('x-middleware-rewrite')).toBeNull();
    expect((await unavailableRoute.GET(new Request('http://localhost:3000/sign/unavailable'))).status).toBe(404);
  });
});
