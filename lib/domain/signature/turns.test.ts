import { and, asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { emails, signatureDocuments, signatureEnvelopes, signatureSigners } from '@/db/schema';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { auditEvents, verifyAuditChain } from './audit';
import { decryptSignerToken, hashSignerToken, issueSignerToken, killSignerTokens, signerUrl } from './tokens';
import { currentTurn, openTurns } from './turns';

let org: TestOrg;
let documentId: string;
const ctx = { ip: '203.0.113.7', userAgent: 'vitest' };

beforeAll(async () => {
  org = await createTestOrg();
  const [doc] = await org.db
    .insert(signatureDocuments)
    .values({ org_id: org.org.id, name: 'contrat.pdf', storage_key: 'k', sha256: 'a'.repeat(64), page_count: 1, byte_size: 10 })
    .returning();
  documentId = doc!.id;
});

/** An envelope already `sent` with signers at these routing orders (the send path is lifecycle.test.ts's). */
async function sentEnvelope(orders: number[], routing_mode: 'sequential' | 'parallel' = 'sequential', expires_at: Date | null = null) {
  const [env] = await org.db
    .insert(signatureEnvelopes)
    .values({ org_id: org.org.id, source_kind: 'document', source_document_id: documentId, document_id: documentId, routing_mode, consent_text_version: 'v', status: 'sent', expires_at, subject: 'Bail' })
    .returning();
  const signers = await org.db
    .insert(signatureSigners)
    .values(orders.map((routing_order, position) => ({ org_id: org.org.id, envelope_id: env!.id, position, email: `s${position}@exemple.fr`, routing_order })))
    .returning();
  return { envelope: env!, signers: signers.sort((a, b) => a.position - b.position) };
}

const signersOf = (envelopeId: string) => org.db.select().from(signatureSigners).where(eq(signatureSigners.envelope_id, envelopeId)).orderBy(asc(signatureSigners.position));
const mailsTo = (address: string) => org.db.select().from(emails).where(and(eq(emails.org_id, org.org.id), eq(emails.to, [address])));

describe('tokens', () => {
  it('issues a 256-bit base64url token stored as its SHA-256 and an encrypted copy, expiring with the envelope', async () => {
    const expires = new Date(Date.now() + 86_400_000);
    const { signers } = await sentEnvelope([0], 'sequential', expires);
    const raw = await org.db.transaction((tx) => issueSignerToken(tx, signers[0]!.id));
    expect(raw).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [row] = await signersOf(signers[0]!.envelope_id);
    expect(row!.token_hash).toBe(hashSignerToken(raw));
    expect(row!.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row!.token_ciphertext).not.toContain(raw);
    expect(decryptSignerToken(row!.token_ciphertext, row!.token_hash)).toBe(raw);
    expect(row!.token_expires_at?.getTime()).toBe(expires.getTime());
    expect(signerUrl(raw)).toMatch(new RegExp(`/sign/${raw}$`));
    // A second token replaces the first.
    const again = await issueSignerToken(org.db, signers[0]!.id);
    const [after] = await signersOf(signers[0]!.envelope_id);
    expect(after!.token_hash).toBe(hashSignerToken(again));
    expect(decryptSignerToken(row!.token_ciphertext, after!.token_hash)).toBeNull();
  });

  it('kills every token of the envelope and only of that envelope', async () => {
    const a = await sentEnvelope([0, 0]);
    const b = await sentEnvelope([0]);
    for (const s of [...a.signers, ...b.signers]) await issueSignerToken(org.db, s.id);
    await killSignerTokens(org.db, a.envelope.id);
    expect((await signersOf(a.envelope.id)).map((s) => [s.token_hash, s.token_ciphertext])).toEqual([
      [null, null],
      [null, null],
    ]);
    expect((await signersOf(b.envelope.id))[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('openTurns', () => {
  it('sequential: notifies the lowest order (equal orders together), then the next once they have signed; idempotent', async () => {
    const { envelope, signers } = await sentEnvelope([1, 0, 0, 2]);
    const first = await org.db.transaction((tx) => openTurns(tx, envelope.id, ctx));
    expect(first.map((s) => s.position).sort()).toEqual([1, 2]);
    expect((await signersOf(envelope.id)).map((s) => s.status)).toEqual(['waiting', 'notified', 'notified', 'waiting']);
    expect(await org.db.transaction((tx) => openTurns(tx, envelope.id, ctx))).toEqual([]);
    const mails = await mailsTo('s1@exemple.fr');
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ template: 'signature_request', language: 'fr', status: 'queued' });
    expect(mails[0]!.text).toContain('/sign/');
    // The link in the e-mail is the stored token's.
    const [, s1] = await signersOf(envelope.id);
    const raw = decryptSignerToken(s1!.token_ciphertext, s1!.token_hash)!;
    expect(mails[0]!.text).toContain(signerUrl(raw));

    // One of the two signs: the turn is not over.
    await org.db.update(signatureSigners).set({ status: 'signed', signed_at: new Date() }).where(eq(signatureSigners.id, signers[1]!.id));
    expect(await openTurns(org.db, envelope.id, ctx)).toEqual([]);
    await org.db.update(signatureSigners).set({ status: 'signed', signed_at: new Date() }).where(eq(signatureSigners.id, signers[2]!.id));
    expect((await openTurns(org.db, envelope.id, ctx)).map((s) => s.email)).toEqual(['s0@exemple.fr']);
    expect((await signersOf(envelope.id)).map((s) => s.status)).toEqual(['notified', 'signed', 'signed', 'waiting']);

    const chain = await auditEvents(org.db, envelope.id);
    expect(chain.map((e) => [e.event_type, e.signer_id])).toEqual([
      ['signer.notified', signers[1]!.id],
      ['signer.notified', signers[2]!.id],
      ['signer.notified', signers[0]!.id],
    ]);
    expect(chain[0]!.event_data).toMatchObject({ ip: '203.0.113.7', user_agent: 'vitest', email: 's1@exemple.fr', routing_order: 0 });
    expect(await verifyAuditChain(org.db, envelope.id)).toMatchObject({ ok: true, count: 3 });
    const [row] = await org.db.select().from(signatureEnvelopes).where(eq(signatureEnvelopes.id, envelope.id));
    expect(row!.next_reminder_at!.getTime()).toBeGreaterThan(Date.now() + 47 * 3_600_000);
  });

  it('parallel: every waiting signer at once', async () => {
    const { envelope } = await sentEnvelope([0, 0, 0], 'parallel');
    expect(await openTurns(org.db, envelope.id, ctx)).toHaveLength(3);
    expect((await signersOf(envelope.id)).every((s) => s.status === 'notified' && s.token_hash)).toBe(true);
  });

  it('does nothing for an envelope that is not sent or in progress', async () => {
    const { envelope } = await sentEnvelope([0]);
    await org.db.update(signatureEnvelopes).set({ status: 'cancelled' }).where(eq(signatureEnvelopes.id, envelope.id));
    expect(await openTurns(org.db, envelope.id, ctx)).toEqual([]);
    expect((await signersOf(envelope.id))[0]!.status).toBe('waiting');
  });

  it('currentTurn: the lowest order among those who have not signed', () => {
    const s = (routing_order: number, status: 'waiting' | 'signed') => ({ routing_order, status }) as never;
    expect(currentTurn('sequential', [s(0, 'signed'), s(2, 'waiting'), s(1, 'waiting')])).toEqual([s(1, 'waiting')]);
    expect(currentTurn('sequential', [s(0, 'signed')])).toEqual([]);
    expect(currentTurn('parallel', [s(0, 'signed'), s(0, 'waiting')])).toHaveLength(2);
  });
});
