import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { documentItems, documentRenders, documents, hashChains } from '@/db/schema';
import { runCli } from '@/lib/composition/cli/program';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { billingCli } from './cli';
import { addDays, todayParis } from '@/lib/platform/dates';
import { finalizeDocument } from './finalize-document';
import { verifyChain } from './hash-chain';
import { billingContext, documentRow, eventsOf, line, routes, withoutTriggers } from './testing';

let org: TestOrg;
let api: Awaited<ReturnType<typeof billingContext>>;
let client: { id: string };
const year = todayParis().slice(0, 4);
beforeAll(async () => {
  org = await createTestOrg();
  api = await billingContext(org);
  client = await api.contact();
});

/** The auditor's computation (docs/hash-chain.md), from the API representation only — not from our code. */
// biome-ignore lint/suspicious/noExplicitAny: the API body as JSON, read field by field like an auditor would
function auditorHash(doc: Record<string, any>, orgId: string): string {
  const payload = {
    format: 'paraphe.billing-document.v1',
    id: doc.id,
    org_id: orgId,
    type: doc.type,
    number: doc.number,
    issue_date: doc.issue_date,
    due_date: doc.due_date,
    service_date: doc.service_date,
    validity_date: doc.validity_date,
    finalized_at: doc.finalized_at,
    currency: 'EUR',
    seller: doc.seller_snapshot,
    buyer: doc.client_snapshot,
    title: doc.title,
    description: doc.description,
    notes: doc.notes,
    items: doc.items.map((it: Record<string, unknown>) => ({
      id: it.id,
      position: it.position,
      kind: it.kind,
      description: it.description,
      details: it.details,
      quantity: it.quantity,
      unit: it.unit,
      unit_price: it.unit_price,
      vat_rate: it.vat_rate,
      vat_category: it.vat_category,
      product_id: it.product_id,
      total_ht: it.total_ht,
      total_ttc: it.total_ttc,
    })),
    total_ht: doc.total_ht,
    total_tva: doc.total_tva,
    total_ttc: doc.total_ttc,
    converted_from_id: doc.converted_from_id,
    parent_devis_id: doc.parent_devis_id,
    avoir_for_id: doc.avoir_for_id,
    acompte_percentage: doc.acompte_percentage,
    deposit_request_percentage: doc.deposit_request_percentage,
    credit_reason_code: doc.credit_reason_code,
    credit_reason_text: doc.credit_reason_text,
    delivery_address: doc.delivery_address,
    payment_terms: doc.payment_terms,
    payment_method: doc.payment_method,
    discount_terms: doc.discount_terms,
    execution_timeline: doc.execution_timeline,
    operation_nature: doc.operation_nature,
    vat_exigibility: doc.vat_exigibility,
    payment_plan_kind: doc.payment_plan_kind,
    payment_plan_config: doc.payment_plan_config,
  };
  return createHash('sha256')
    .update(`${doc.prev_hash ?? ''}\n${canonicalize(payload)}`)
    .digest('hex');
}

describe('POST /v1/invoices/{id}/finalize', () => {
  it('numbers, snapshots and seals a draft, chained to the previous document, in one answer', async () => {
    const draft = await api.draft({
      type: 'facture',
      contact_id: client.id,
      title: 'Prestation',
      operation_nature: 'services',
      delivery_address: { address: '5 quai Est', postal_code: '69002', city: 'Lyon' },
      items: [line('Conseil', '1.5', 80000, '20', { unit: 'DAY', details: 'Sur site' }), line('Livre', '2', 1999, '5.5')],
    });
    const res = await api.finalize(draft.id);
    expect(res.status).toBe(200);
    const first = res.body;
    expect(first).toMatchObject({
      id: draft.id,
      status: 'finalized',
      number: `FAC-${year}-00001`,
      issue_date: todayParis(),
      finalized_at: expect.stringMatching(/Z$/),
      content_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      prev_hash: null,
      contact_name: 'Client SARL',
      total_ht: 123998, // 1200.00 + 39.98
      total_tva: 24220, // 240.00 + 2.199 → 2.20
      total_ttc: 148218,
      delivery_address: { name: null, address: '5 quai Est', postal_code: '69002', city: 'Lyon', country: 'FR' },
    });
    expect(first.items).toHaveLength(2);
    expect(first.client_snapshot).toEqual({
      contact_id: client.id,
      type: 'professionnel',
      name: 'Client SARL',
      first_name: null,
      last_name: null,
      company: 'Client SARL',
      email: null,
      phone: null,
      address: '1 rue du Client',
      postal_code: '69001',
      city: 'Lyon',
      country: 'FR',
      siret: '55203253400646',
      siren: '552032534',
      vat_intra: null,
    });
    expect(first.seller_snapshot).toMatchObject({
      name: org.org.legal_name,
      legal_form: 'SAS',
      siren: '732829320',
      siret: '73282932000074',
      vat_number: 'FR44732829320',
      city: 'Paris',
      recovery_fee: 4000,
      penalty_rate: null,
    });
    expect(auditorHash(first, org.org.id)).toBe(first.content_hash);

    const second = (await api.finalize((await api.draft({ type: 'facture', contact_id: client.id, items: [line('X', '1', 100)] })).id)).body;
    expect(second).toMatchObject({ number: `FAC-${year}-00002`, prev_hash: first.content_hash });
    expect(auditorHash(second, org.org.id)).toBe(second.content_hash);

    // Each type is its own series; the chain is the org's, across types.
    const quote = await api.issued({ type: 'devis', contact_id: client.id, items: [line('Q', '1', 100)] });
    expect(quote).toMatchObject({ number: `DEV-${year}-00001`, prev_hash: second.content_hash });

    const finalized = (await eventsOf(org, 'invoice.finalized')).map((e) => e.payload as { object: { id: string; items: unknown[] } });
    expect(finalized.find((p) => p.object.id === first.id)?.object).toEqual(first);
    expect((await verifyChain(org.db, org.org.id)).ok).toBe(true);
  });

  it('moves a past issue date to today with the due and validity dates keeping their offsets', async () => {
    const invoice = await api.issued({ type: 'facture', contact_id: client.id, issue_date: '2026-01-10', due_date: '2026-02-24', items: [line('A', '1', 100)] });
    expect(invoice).toMatchObject({ issue_date: todayParis(), due_date: addDays(todayParis(), 45) });
    const quote = await api.issued({ type: 'devis', contact_id: client.id, issue_date: '2026-01-10', validity_date: '2026-01-20', items: [line('A', '1', 100)] });
    expect(quote).toMatchObject({ issue_date: todayParis(), validity_date: addDays(todayParis(), 10) });
  });

  it('keeps a future date on a quote but refuses it on an invoice (numbers follow dates)', async () => {
    const future = addDays(todayParis(), 3);
    expect((await api.issued({ type: 'devis', contact_id: client.id, issue_date: future, items: [line('A', '1', 100)] })).issue_date).toBe(future);
    const draft = await api.draft({ type: 'facture', contact_id: client.id, issue_date: future, items: [line('A', '1', 100)] });
    expect((await api.finalize(draft.id)).body).toMatchObject({ code: 'validation_error', field: 'issue_date' });
    expect((await documentRow(org.db, draft.id))?.number).toBeNull();
  });

  it('refuses an empty document, a second finalization, and any change afterwards', async () => {
    const empty = await api.draft({ type: 'facture', contact_id: client.id });
    expect((await api.finalize(empty.id)).body).toMatchObject({ code: 'validation_error', field: 'items' });

    const doc = await api.issued({ type: 'facture', contact_id: client.id, items: [line('A', '1', 100)] });
    expect((await api.finalize(doc.id)).body).toMatchObject({ code: 'already_finalized' });
    expect((await api.finalize(doc.id)).status).toBe(409);
    const patch = await api.patch(doc.id, { title: 'changed' });
    expect(patch.status).toBe(409);
    expect(patch.body.code).toBe('document_finalized');
    const del = await api.remove(doc.id);
    expect(del.status).toBe(409);
    expect(del.body.code).toBe('document_finalized');
    expect((await api.get(doc.id)).body).toEqual({ ...doc, updated_at: expect.any(String) });
  });

  it('numbers by the year of the issue date and takes the prefix from the settings', async () => {
    const o = await createTestOrg();
    const b = await billingContext(o);
    const c = await b.contact();
    const draft2026 = await b.draft({ type: 'facture', contact_id: c.id, items: [line('A', '1', 100)] });
    const draft2027 = await b.draft({ type: 'facture', contact_id: c.id, items: [line('A', '1', 100)] });
    const a = await finalizeDocument(o.db, o.org.id, draft2026.id, new Date('2026-12-31T22:59:00Z')); // 23:59 in Paris
    const n = await finalizeDocument(o.db, o.org.id, draft2027.id, new Date('2026-12-31T23:01:00Z')); // 00:01 on January 1st
    expect([a.number, a.issue_date]).toEqual(['FAC-2026-00001', '2026-12-31']);
    expect([n.number, n.issue_date]).toEqual(['FAC-2027-00001', '2027-01-01']);

    await call(routes.putSettings, 'PUT', '/v1/invoice/settings', { token: b.token, body: { facture_prefix: 'F/LY' } });
    const third = await b.issued({ type: 'facture', contact_id: c.id, items: [line('A', '1', 100)] });
    expect(third.number).toBe(`F/LY-${year}-00002`);
  });
});

describe('immutability at the database layer', () => {
  it('refuses a direct SQL update of a finalized total, items or hash, and a delete; status stays updatable', async () => {
    const doc = await api.issued({ type: 'facture', contact_id: client.id, items: [line('A', '1', 1000)] });
    const refused = async (statement: Promise<unknown>) => {
      await expect(statement).rejects.toThrow();
    };
    await refused(org.db.execute(sql`update documents set total_ttc = 1 where id = ${doc.id}`));
    await refused(org.db.update(documents).set({ number: 'FAC-0000-00000' }).where(eq(documents.id, doc.id)));
    await refused(org.db.update(documents).set({ content_hash: 'f'.repeat(64) }).where(eq(documents.id, doc.id)));
    await refused(org.db.update(documents).set({ client_snapshot: { name: 'Someone else' } }).where(eq(documents.id, doc.id)));
    await refused(org.db.update(documents).set({ finalized_at: null }).where(eq(documents.id, doc.id)));
    await refused(org.db.delete(documents).where(eq(documents.id, doc.id)));
    await refused(org.db.update(documentItems).set({ unit_price: 1 }).where(eq(documentItems.document_id, doc.id)));
    await refused(org.db.delete(documentItems).where(eq(documentItems.document_id, doc.id)));
    await refused(
      org.db.insert(documentItems).values({
        org_id: org.org.id,
        document_id: doc.id,
        position: 9,
        description: 'extra',
        quantity: '1',
        unit_price: 1,
        vat_rate: '20.00',
        vat_category: 'S',
        total_ht: 1,
        total_ttc: 1,
      }),
    );
    const row = await documentRow(org.db, doc.id);
    expect(row).toMatchObject({ total_ttc: 1200, number: doc.number, content_hash: doc.content_hash });

    await org.db.update(documents).set({ status: 'sent', sent_at: new Date() }).where(eq(documents.id, doc.id));
    // The render state is pdf's row now (document_renders), free like the status.
    await org.db.insert(documentRenders).values({ document_id: doc.id, org_id: org.org.id, status: 'ready' });
    expect(await documentRow(org.db, doc.id)).toMatchObject({ status: 'sent', render_status: 'ready' });
    // Drafts stay free.
    const draft = await api.draft({ type: 'facture', contact_id: client.id, items: [line('A', '1', 1000)] });
    await org.db.update(documents).set({ total_ttc: 5 }).where(eq(documents.id, draft.id));
    await org.db.delete(documents).where(eq(documents.id, draft.id));
    expect((await verifyChain(org.db, org.org.id)).ok).toBe(true);
  });
});

describe('hash chain verification', () => {
  async function chainOf(n: number) {
    const o = await createTestOrg();
    const b = await billingContext(o);
    const c = await b.contact();
    const docs = [];
    for (let i = 0; i < n; i += 1) docs.push(await b.issued({ type: 'facture', contact_id: c.id, items: [line(`L${i}`, '1', 100 + i)] }));
    return { o, docs };
  }
  const cli = async (args: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(args, { db: getDb, out: (l) => out.push(l), err: (l) => err.push(l) }, [billingCli]);
    return { code, out: out.join('\n'), err: err.join('\n') };
  };

  it('chain:verify passes on an intact chain (human and --json output)', async () => {
    const { o, docs } = await chainOf(3);
    const human = await cli(['chain:verify', '--org', o.org.id]);
    expect(human).toMatchObject({ code: 0, out: expect.stringContaining(`verified: 3 document(s), head ${docs[2].content_hash}`) });
    const json = await cli(['chain:verify', '--org', o.org.id, '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.out)).toEqual({ org_id: o.org.id, ok: true, verified: 3, head_hash: docs[2].content_hash, first_broken: null, skipped_numbers: [] });
    expect((await cli(['chain:verify', '--org', 'nope'])).code).toBe(1);
  });

  it('reports the first broken link: altered content, altered link, missing document, truncated head (exit 1)', async () => {
    const { o, docs } = await chainOf(4);
    await withoutTriggers(o.db, async (tx) => {
      await tx.update(documentItems).set({ unit_price: 999_999 }).where(eq(documentItems.document_id, docs[1].id));
    });
    const res = await cli(['chain:verify', '--org', o.org.id, '--json']);
    expect(res.code).toBe(1);
    expect(JSON.parse(res.out)).toMatchObject({
      ok: false,
      verified: 1,
      first_broken: { reason: 'content_hash_mismatch', chain_index: 2, document_id: docs[1].id, number: docs[1].number, actual: docs[1].content_hash },
    });
    expect(res.err).toContain('hash chain broken (content_hash_mismatch at chain index 2)');

    await withoutTriggers(o.db, async (tx) => {
      await tx.update(documentItems).set({ unit_price: 101 }).where(eq(documentItems.document_id, docs[1].id));
      await tx.update(documents).set({ prev_hash: 'a'.repeat(64) }).where(eq(documents.id, docs[2].id));
    });
    expect((await verifyChain(o.db, o.org.id)).first_broken).toMatchObject({ reason: 'prev_hash_mismatch', chain_index: 3, actual: 'a'.repeat(64) });

    await withoutTriggers(o.db, async (tx) => {
      await tx.update(documents).set({ prev_hash: docs[1].content_hash }).where(eq(documents.id, docs[2].id));
      await tx.delete(documents).where(eq(documents.id, docs[2].id));
    });
    expect((await verifyChain(o.db, o.org.id)).first_broken).toMatchObject({ reason: 'index_gap', chain_index: 4, expected: '3' });

    const { o: o2, docs: d2 } = await chainOf(2);
    await withoutTriggers(o2.db, async (tx) => {
      await tx.delete(documents).where(eq(documents.id, d2[1].id));
    });
    expect(await verifyChain(o2.db, o2.org.id)).toMatchObject({ ok: false, verified: 1, first_broken: { reason: 'head_mismatch' } });
    const [head] = await o2.db.select().from(hashChains).where(eq(hashChains.org_id, o2.org.id));
    expect(head?.head_hash).toBe(d2[1].content_hash);
  });

  it('gives 50 concurrent finalizations 50 distinct gapless numbers and a chain that verifies', async () => {
    const o = await createTestOrg();
    const b = await billingContext(o);
    const c = await b.contact();
    const drafts = [];
    for (let i = 0; i < 50; i += 1) drafts.push(await b.draft({ type: 'facture', contact_id: c.id, items: [line(`L${i}`, '1', 1000 + i)] }));
    const results = await Promise.all(drafts.map((d) => b.finalize(d.id)));
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(200));
    const numbers = results.map((r) => r.body.number).sort();
    expect(numbers).toEqual(Array.from({ length: 50 }, (_, i) => `FAC-${year}-${String(i + 1).padStart(5, '0')}`));
    const rows = await o.db
      .select({ chain_index: documents.chain_index, number: documents.number })
      .from(documents)
      .where(and(eq(documents.org_id, o.org.id)));
    expect(rows.map((r) => r.chain_index).sort((x, y) => x! - y!)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    // Chain order and number order agree: the chain lock is taken before the counter.
    const byIndex = [...rows].sort((x, y) => x.chain_index! - y.chain_index!).map((r) => r.number);
    expect(byIndex).toEqual(numbers);
    expect(await verifyChain(o.db, o.org.id)).toMatchObject({ ok: true, verified: 50 });
  }, 120_000);
});
