import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { einvoicingLifecycleEvents, einvoicingTransmissions, inboundInvoices } from '@/db/schema';
import { billingContext, line } from '@/lib/domain/documents/testing';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';

let org: TestOrg;
let documentId: string;
beforeAll(async () => {
  org = await createTestOrg();
  const api = await billingContext(org);
  const contact = await api.contact();
  documentId = (await api.issued({ type: 'facture', contact_id: contact.id, items: [line('Conseil', '1', 10000)] })).id;
});

/** The database's own message (drizzle wraps it as the cause). */
const failure = (q: PromiseLike<unknown>) =>
  Promise.resolve(q).then(
    () => 'succeeded',
    (e: Error & { cause?: Error }) => e.cause?.message ?? e.message,
  );

const event = (pa_event_id: string, code = '200') => ({
  org_id: org.org.id,
  document_id: documentId,
  direction: 'received' as const,
  pa_event_id,
  code,
  token: 'deposee',
  issuer_role: 'seller_pa' as const,
  occurred_at: new Date('2026-11-26T10:00:00Z'),
});

describe('einvoicing schema', () => {
  it('keeps the lifecycle log append-only: no update, no delete, one row per PA event identity', async () => {
    const [row] = await org.db.insert(einvoicingLifecycleEvents).values(event('flow-1#0')).returning();
    expect(await failure(org.db.update(einvoicingLifecycleEvents).set({ reason: 'x' }).where(eq(einvoicingLifecycleEvents.id, row!.id)))).toMatch(/cannot change/);
    expect(await failure(org.db.delete(einvoicingLifecycleEvents).where(eq(einvoicingLifecycleEvents.id, row!.id)))).toMatch(/cannot be deleted/);
    const again = await org.db.insert(einvoicingLifecycleEvents).values(event('flow-1#0', '213')).onConflictDoNothing().returning();
    expect(again).toEqual([]);
    const rows = await org.db.select().from(einvoicingLifecycleEvents).where(eq(einvoicingLifecycleEvents.document_id, documentId));
    expect(rows.map((r) => [r.code, r.reason])).toEqual([['200', null]]);
  });

  it('an event is about a document or a received invoice, exactly one', async () => {
    await expect(org.db.insert(einvoicingLifecycleEvents).values({ ...event('flow-2#0'), document_id: null })).rejects.toThrow();
  });

  it('one transmission per document; one received invoice per flow and org', async () => {
    const t = { org_id: org.org.id, document_id: documentId, file_sha256: 'a'.repeat(64) };
    await org.db.insert(einvoicingTransmissions).values({ ...t, tracking_id: 't-1' });
    await expect(org.db.insert(einvoicingTransmissions).values({ ...t, tracking_id: 't-2', file_sha256: 'b'.repeat(64) })).rejects.toThrow();
    const inbound = { org_id: org.org.id, flow_id: 'in-1', storage_key: 'k', sha256: 'c'.repeat(64) };
    await org.db.insert(inboundInvoices).values(inbound);
    await expect(org.db.insert(inboundInvoices).values(inbound)).rejects.toThrow();
    const other = await createTestOrg();
    await other.db.insert(inboundInvoices).values({ ...inbound, org_id: other.org.id });
    const count = await org.db.execute(sql`select count(*)::int as n from inbound_invoices where flow_id = 'in-1'`);
    expect((count as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(2);
  });
});
