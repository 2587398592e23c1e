import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { documents } from '@/db/schema';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { billingContext, line, routes, withoutTriggers } from './testing';

let org: TestOrg;
let api: Awaited<ReturnType<typeof billingContext>>;
let token: string;
const chain = (t = token) => call(routes.chain, 'GET', '/v1/invoices/chain', { token: t });
const verify = (t = token) => call(routes.verifyChain, 'POST', '/v1/invoices/chain/verify', { token: t });

beforeAll(async () => {
  org = await createTestOrg();
  api = await billingContext(org);
  token = await org.key(['invoice:read']);
});

describe('the hash chain for auditors', () => {
  it('is empty, and verifies, before the first finalization', async () => {
    expect((await chain()).body).toEqual({ length: 0, head: null, head_document_id: null, verified_at: null });
    const report = await verify();
    expect(report.status).toBe(200);
    expect(report.body).toMatchObject({ ok: true, verified: 0, head_hash: null, first_broken: null, verified_at: expect.any(String) });
  });

  it('gives each finalized document its place, and the head is the last one; a read-only key verifies it', async () => {
    const contact = await api.contact();
    const body = { type: 'facture', contact_id: contact.id, items: [line('Audit', '1', 10_000)] };
    const first = await api.issued(body);
    const second = await api.issued(body);
    const draft = await api.draft(body);
    expect([first.chain_index, second.chain_index, draft.chain_index]).toEqual([1, 2, null]);
    expect(second.prev_hash).toBe(first.content_hash);

    const before = (await chain()).body;
    expect(before).toMatchObject({ length: 2, head: second.content_hash, head_document_id: second.id });
    const report = await verify();
    expect(report.body).toMatchObject({ ok: true, verified: 2, head_hash: second.content_hash, first_broken: null });
    expect(Date.parse(report.body.verified_at)).toBeGreaterThanOrEqual(Date.parse(before.verified_at));
    expect((await chain()).body.verified_at).toBe(report.body.verified_at);
  });

  it('reports an altered document and keeps the last good verification; the head betrays a deleted last document', async () => {
    const { verified_at: lastGood, length } = (await chain()).body;
    const [row] = await org.db
      .select()
      .from(documents)
      .where(and(eq(documents.org_id, org.org.id), eq(documents.chain_index, 1)));
    await withoutTriggers(org.db, async (tx) => {
      await tx.update(documents).set({ total_ttc: row!.total_ttc + 1 }).where(eq(documents.id, row!.id));
    });
    const altered = await verify();
    expect(altered.body).toMatchObject({ ok: false, verified: 0, first_broken: { reason: 'content_hash_mismatch', chain_index: 1, document_id: row!.id }, verified_at: lastGood });
    await withoutTriggers(org.db, async (tx) => {
      await tx.update(documents).set({ total_ttc: row!.total_ttc }).where(eq(documents.id, row!.id));
      await tx.delete(documents).where(and(eq(documents.org_id, org.org.id), eq(documents.chain_index, length)));
    });
    // The head still counts the deleted document: what an auditor compares with the documents listed.
    expect((await chain()).body.length).toBe(length);
    expect((await verify()).body).toMatchObject({ ok: false, verified: length - 1, first_broken: { reason: 'head_mismatch' } });
  });

  it("is each org's own", async () => {
    const other = await createTestOrg();
    expect((await chain(await other.key(['invoice:read']))).body).toEqual({ length: 0, head: null, head_document_id: null, verified_at: null });
  });
});
