import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Db } from '@/db/client';
import { signatureAuditEvents, signatureEnvelopes } from '@/db/schema';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { appendAuditEvent, auditEvents, verifyAuditChain } from './audit';

async function draftEnvelope(org: TestOrg) {
  const [row] = await org.db
    .insert(signatureEnvelopes)
    .values({ org_id: org.org.id, source_kind: 'document', source_document_id: crypto.randomUUID(), consent_text_version: 'v1' })
    .returning();
  return row!;
}

async function chainOf(org: TestOrg, n: number) {
  const envelope = await draftEnvelope(org);
  const signer = crypto.randomUUID();
  await org.db.transaction(async (tx) => {
    await appendAuditEvent(tx, envelope.id, { event_type: 'envelope.created', event_data: { ip: '203.0.113.7', user_agent: 'vitest' } });
    for (let i = 1; i < n; i += 1) {
      await appendAuditEvent(tx, envelope.id, { event_type: 'signer.opened', signer_id: signer, event_data: { ip: '198.51.100.2', user_agent: 'Firefox', i, é: 'ü' } });
    }
  });
  return envelope;
}

/** Writes with the triggers off (a superuser's `session_replication_role = replica`), as an attacker with psql could. */
async function raw(db: Db, statement: ReturnType<typeof sql>) {
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.execute(statement);
  });
}

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => '',
    (e: Error & { cause?: Error }) => `${e.message} ${e.cause?.message ?? ''}`,
  );

describe('the audit chain of an envelope', () => {
  it('links each event to the previous one by the DESIGN §12 rule, and verifies', async () => {
    const org = await createTestOrg();
    const envelope = await chainOf(org, 4);
    const rows = await auditEvents(org.db, envelope.id);
    expect(rows.map((r) => r.seq_index)).toEqual([0, 1, 2, 3]);
    expect(rows[0]!.prev_hash).toBeNull();
    // Recomputed here by hand, as an auditor's script would: sha256(prev + "\n" + JCS(content)).
    let prev = '';
    for (const row of rows) {
      const jcs = canonicalize({ seq_index: row.seq_index, event_type: row.event_type, event_data: row.event_data, signer_id: row.signer_id, occurred_at: row.occurred_at.toISOString() });
      expect(row.content_hash).toBe(createHash('sha256').update(`${prev}\n${jcs}`).digest('hex'));
      if (row.seq_index > 0) expect(row.prev_hash).toBe(prev);
      prev = row.content_hash;
    }
    expect(await verifyAuditChain(org.db, envelope.id)).toEqual({ ok: true, count: 4, first_broken: null });
  });

  it('is append-only: UPDATE and DELETE are refused by the database', async () => {
    const org = await createTestOrg();
    const envelope = await chainOf(org, 2);
    expect(await refusal(org.db.update(signatureAuditEvents).set({ event_data: { ip: '1.1.1.1' } }).where(eq(signatureAuditEvents.envelope_id, envelope.id)))).toMatch(/append-only: it cannot change/);
    expect(await refusal(org.db.delete(signatureAuditEvents).where(eq(signatureAuditEvents.envelope_id, envelope.id)))).toMatch(/append-only: it cannot be deleted/);
    expect(await verifyAuditChain(org.db, envelope.id)).toMatchObject({ ok: true, count: 2 });
  });

  it('names the first tampered event (content changed with the triggers off)', async () => {
    const org = await createTestOrg();
    const envelope = await chainOf(org, 5);
    await raw(org.db, sql`update signature_audit_events set event_data = jsonb_set(event_data, '{ip}', '"10.0.0.1"') where envelope_id = ${envelope.id} and seq_index = 2`);
    const report = await verifyAuditChain(org.db, envelope.id);
    expect(report).toMatchObject({ ok: false, count: 5, first_broken: { index: 2, reason: 'content_hash_mismatch' } });
  });

  it('names a removed event and a rewritten link', async () => {
    const org = await createTestOrg();
    const removed = await chainOf(org, 4);
    await raw(org.db, sql`delete from signature_audit_events where envelope_id = ${removed.id} and seq_index = 1`);
    expect(await verifyAuditChain(org.db, removed.id)).toMatchObject({ ok: false, count: 3, first_broken: { index: 1, reason: 'index_gap' } });

    // Rehashing one event to hide a change still breaks the next link.
    const rehashed = await chainOf(org, 3);
    await raw(org.db, sql`update signature_audit_events set content_hash = ${'f'.repeat(64)} where envelope_id = ${rehashed.id} and seq_index = 0`);
    expect((await verifyAuditChain(org.db, rehashed.id)).first_broken).toMatchObject({ index: 0, reason: 'content_hash_mismatch' });
  });

  it('lets a draft be deleted with its chain, never a sent envelope', async () => {
    const org = await createTestOrg();
    const draft = await chainOf(org, 2);
    await org.db.delete(signatureEnvelopes).where(eq(signatureEnvelopes.id, draft.id));
    expect(await auditEvents(org.db, draft.id)).toEqual([]);
    const sent = await chainOf(org, 2);
    await org.db.update(signatureEnvelopes).set({ status: 'sent' }).where(eq(signatureEnvelopes.id, sent.id));
    expect(await refusal(org.db.delete(signatureEnvelopes).where(eq(signatureEnvelopes.id, sent.id)))).toMatch(/only a draft can be deleted/);
    expect(await verifyAuditChain(org.db, sent.id)).toMatchObject({ ok: true, count: 2 });
  });

  it('appends concurrently without forking the chain', async () => {
    const org = await createTestOrg();
    const envelope = await chainOf(org, 1);
    await Promise.all(
      Array.from({ length: 6 }, (_, i) => org.db.transaction((tx) => appendAuditEvent(tx, envelope.id, { event_type: 'signer.field_filled', event_data: { i } }))),
    );
    expect(await verifyAuditChain(org.db, envelope.id)).toMatchObject({ ok: true, count: 7 });
  });
});
