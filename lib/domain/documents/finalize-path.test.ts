import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { getDb } from '@/db/client';
import { documents, hashChains, numberCounters } from '@/db/schema';
import { runCli } from '@/lib/composition/cli/program';
import { routes as contactRoutes } from '@/lib/domain/contacts/testing';
import { addDays, parisInstant, todayParis } from '@/lib/platform/dates';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { billingCli } from './cli';
import { sealInChain, sealingTemplate, verifyChain } from './hash-chain';
import { billingContext, documentRow, eventsOf, line, routes, withoutTriggers } from './testing';

// Issue 11, defect 7: the rows the finalize path writes (the finalized document, the chain head, the number counter)
// refuse every other write at the database layer (migration 0016), and chain:verify sees what triggers cannot stop.

const year = Number(todayParis().slice(0, 4));

async function orgWithInvoices(n: number) {
  const org = await createTestOrg();
  const api = await billingContext(org);
  const client = await api.contact();
  const docs = [];
  for (let i = 0; i < n; i += 1) docs.push(await api.issued({ type: 'facture', contact_id: client.id, items: [line(`L${i}`, '1', 1000 + i)] }));
  return { org, api, client, docs };
}

const counterOf = async (org: TestOrg, type = 'facture') =>
  (
    await org.db
      .select()
      .from(numberCounters)
      .where(and(eq(numberCounters.org_id, org.org.id), eq(numberCounters.type, type as 'facture'), eq(numberCounters.year, year)))
  )[0];
const headOf = async (org: TestOrg) => (await org.db.select().from(hashChains).where(eq(hashChains.org_id, org.org.id)))[0]!;

/** The statement fails, with the trigger's message. */
const refused = async (statement: Promise<unknown>, message: RegExp) => {
  const error = await statement.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, `expected a refusal matching ${message}`).not.toBeNull();
  const texts = [String((error as Error).message), String((error as { cause?: Error }).cause?.message ?? '')].join(' | ');
  expect(texts).toMatch(message);
};

const cli = async (args: string[]) => {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { db: getDb, out: (l) => out.push(l), err: (l) => err.push(l) }, [billingCli]);
  return { code, out: out.join('\n'), err: err.join('\n') };
};

describe('a finalized document', () => {
  let ctx: Awaited<ReturnType<typeof orgWithInvoices>>;
  beforeAll(async () => {
    ctx = await orgWithInvoices(1);
  });

  it('keeps its contact: a direct SQL change of contact_id is refused', async () => {
    const { org, api, docs } = ctx;
    const other = await api.contact({ company: 'Someone Else SA' });
    await refused(org.db.execute(sql`update documents set contact_id = ${other.id} where id = ${docs[0].id}`), /its contact can only follow a merge/);
    await refused(org.db.update(documents).set({ contact_id: other.id, status: 'sent' }).where(eq(documents.id, docs[0].id)), /its contact can only follow a merge/);
    // Also inside a transaction that does other things: the check waits for the commit, and the commit fails.
    await refused(
      org.db.transaction(async (tx) => {
        await tx.update(documents).set({ contact_id: other.id }).where(eq(documents.id, docs[0].id));
        await tx.update(documents).set({ sent_at: new Date() }).where(eq(documents.id, docs[0].id));
      }),
      /its contact can only follow a merge/,
    );
    expect((await documentRow(org.db, docs[0].id))!.contact_id).toBe(docs[0].contact_id);
    expect((await verifyChain(org.db, org.org.id)).ok).toBe(true);
  });

  it('follows a merge of its contact, and the chain still verifies', async () => {
    const { org, api, client } = ctx;
    const target = await api.contact({ company: 'Client SARL (doublon)' });
    const credited = await api.issued({ type: 'facture', contact_id: client.id, items: [line('A', '1', 500)] });
    const merged = await call(contactRoutes.merge, 'POST', `/v1/contacts/${target.id}/merge`, {
      token: api.token,
      params: { id: target.id },
      body: { source_ids: [client.id] },
    });
    expect(merged.status).toBe(200);
    const rows = await org.db.select().from(documents).where(eq(documents.org_id, org.org.id));
    expect(rows.map((r) => r.contact_id)).toEqual(rows.map(() => target.id));
    // A credit note of an invoice made before the merge names the invoice's buyer (the merged contact) and links to the target.
    const note = api.expectStatus(await api.creditNote(credited.id, { credit_reason_code: 'billing_error' }), 201, 'credit note');
    const finalized = api.expectStatus(await api.finalize(note.id), 200, 'finalize credit note');
    expect([finalized.contact_id, finalized.client_snapshot.contact_id]).toEqual([target.id, client.id]);
    expect(await verifyChain(org.db, org.org.id)).toMatchObject({ ok: true, verified: 3, first_broken: null, skipped_numbers: [] });
    // Back to the merged contact is no merge.
    await refused(org.db.update(documents).set({ contact_id: client.id }).where(eq(documents.id, credited.id)), /its contact can only follow a merge/);
  });

  it('cannot go back to draft, and no document is inserted finalized', async () => {
    const { org, docs } = ctx;
    await refused(org.db.update(documents).set({ status: 'draft' }).where(eq(documents.id, docs[0].id)), /cannot go back to draft/);
    const row = (await documentRow(org.db, docs[0].id))!;
    const { id: _id, ...copy } = row;
    await refused(org.db.insert(documents).values({ ...copy, number: 'FAC-1999-00001' }), /created as a draft/);
    await refused(
      org.db.insert(documents).values({ ...copy, number: null, finalized_at: null, chain_index: null, content_hash: null, prev_hash: 'a'.repeat(64) }),
      /created as a draft/,
    );
  });

  it('a chain:verify sees a contact_id changed with the triggers off', async () => {
    const { org, api, docs } = await orgWithInvoices(2);
    const other = await api.contact({ company: 'Autre' });
    await withoutTriggers(org.db, async (tx) => {
      await tx.update(documents).set({ contact_id: other.id }).where(eq(documents.id, docs[1].id));
    });
    expect(await verifyChain(org.db, org.org.id)).toMatchObject({
      ok: false,
      verified: 1,
      first_broken: { reason: 'contact_mismatch', chain_index: 2, document_id: docs[1].id, expected: docs[1].contact_id, actual: other.id },
    });
  });
});

describe('the number counter', () => {
  it('refuses to go back, forward, elsewhere or away; a finalization still takes the next number', async () => {
    const { org, api, client, docs } = await orgWithInvoices(2);
    expect((await counterOf(org))!.last_number).toBe(2);
    const key = sql`org_id = ${org.org.id} and type = 'facture' and year = ${year}`;
    await refused(org.db.execute(sql`update number_counters set last_number = 1 where ${key}`), /only advances by one/);
    await refused(org.db.execute(sql`update number_counters set last_number = 5 where ${key}`), /only advances by one/);
    // +1 is what a finalization does, but only together with the document that carries the number.
    await refused(org.db.execute(sql`update number_counters set last_number = 3 where ${key}`), /only advances by one/);
    await refused(org.db.execute(sql`update number_counters set year = ${year + 1} where ${key}`), /cannot become another series/);
    await refused(org.db.execute(sql`delete from number_counters where ${key}`), /cannot be deleted/);
    await refused(
      org.db.insert(numberCounters).values({ org_id: org.org.id, type: 'facture', year: year + 3, last_number: 7 }),
      /starts at 0/,
    );
    expect((await counterOf(org))!.last_number).toBe(2);

    // A draft sealed by hand must take the next number and the next place: anything else is refused.
    const draft = await api.draft({ type: 'facture', contact_id: client.id, items: [line('X', '1', 100)] });
    const head = await headOf(org);
    const seal = (number: string, chainIndex: number, prev: string | null) =>
      org.db
        .update(documents)
        .set({ number, finalized_at: new Date(), chain_index: chainIndex, prev_hash: prev, content_hash: 'f'.repeat(64), status: 'finalized' })
        .where(eq(documents.id, draft.id));
    await refused(seal(`FAC-${year}-00009`, head.length + 1, head.head_hash), /next number of its series/);
    await refused(seal(`FAC-${year}-00003`, head.length + 2, head.head_hash), /must be sealed at chain index 3/);
    await refused(seal(`FAC-${year}-00003`, head.length + 1, docs[0].content_hash), /must be sealed at chain index 3/);

    const next = api.expectStatus(await api.finalize(draft.id), 200, 'finalize');
    expect([next.number, next.chain_index, next.prev_hash]).toEqual([`FAC-${year}-00003`, 3, docs[1].content_hash]);
    expect((await counterOf(org))!.last_number).toBe(3);
    const quote = await api.issued({ type: 'devis', contact_id: client.id, items: [line('Q', '1', 100)] });
    expect([quote.number, quote.chain_index]).toEqual([`DEV-${year}-00001`, 4]);
    expect(await verifyChain(org.db, org.org.id)).toMatchObject({ ok: true, verified: 4, skipped_numbers: [] });
  });

  it('a number skipped with the triggers off shows in chain:verify (CLI and API), which then fails', async () => {
    const { org, api, client } = await orgWithInvoices(2);
    await withoutTriggers(org.db, async (tx) => {
      await tx.update(numberCounters).set({ last_number: 4 }).where(and(eq(numberCounters.org_id, org.org.id), eq(numberCounters.type, 'facture')));
    });
    const ahead = [{ type: 'facture', year, from: 3, to: 4 }];
    expect(await verifyChain(org.db, org.org.id)).toMatchObject({ ok: false, verified: 2, first_broken: null, skipped_numbers: ahead });

    const json = await cli(['chain:verify', '--org', org.org.id, '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.out)).toMatchObject({ ok: false, first_broken: null, skipped_numbers: ahead });
    const human = await cli(['chain:verify', '--org', org.org.id]);
    expect(human.code).toBe(1);
    expect(human.out).toContain(`Numbers SKIPPED (no finalized document carries them): facture ${year}: 3 to 4.`);
    expect(human.err).toContain('numbers skipped');

    // The next finalization takes 5: the gap stays visible between the documents.
    const fifth = await api.issued({ type: 'facture', contact_id: client.id, items: [line('5', '1', 100)] });
    expect(fifth.number).toBe(`FAC-${year}-00005`);
    const report = await call(routes.verifyChain, 'POST', '/v1/invoices/chain/verify', { token: api.token });
    expect(report.status).toBe(200);
    expect(report.body).toMatchObject({ ok: false, verified: 3, first_broken: null, skipped_numbers: ahead, verified_at: null });
  });

  it('a document removed with the triggers off leaves its number skipped', async () => {
    const { org, docs } = await orgWithInvoices(3);
    await withoutTriggers(org.db, async (tx) => {
      await tx.delete(documents).where(eq(documents.id, docs[1].id));
    });
    expect(await verifyChain(org.db, org.org.id)).toMatchObject({
      ok: false,
      first_broken: { reason: 'index_gap' },
      skipped_numbers: [{ type: 'facture', year, from: 2, to: 2 }],
    });
  });
});

describe('the chain head', () => {
  it('refuses a rewrite, a jump, a move or a deletion; verified_at is still recorded', async () => {
    const { org, api, client, docs } = await orgWithInvoices(2);
    const where = sql`org_id = ${org.org.id}`;
    await refused(org.db.execute(sql`update hash_chains set head_hash = ${'0'.repeat(64)} where ${where}`), /only advances by one/);
    await refused(org.db.execute(sql`update hash_chains set length = 1, head_hash = ${docs[0].content_hash}, head_document_id = ${docs[0].id} where ${where}`), /only advances by one/);
    await refused(org.db.execute(sql`update hash_chains set length = 3 where ${where}`), /only advances by one/);
    await refused(org.db.execute(sql`delete from hash_chains where ${where}`), /cannot be deleted/);
    const empty = await createTestOrg();
    await refused(org.db.insert(hashChains).values({ org_id: empty.org.id, length: 2, head_hash: docs[1].content_hash }), /starts empty/);
    await refused(org.db.execute(sql`update hash_chains set org_id = ${empty.org.id} where ${where}`), /another org/);
    expect(await headOf(org)).toMatchObject({ length: 2, head_hash: docs[1].content_hash, head_document_id: docs[1].id });

    const verified = await call(routes.verifyChain, 'POST', '/v1/invoices/chain/verify', { token: api.token });
    expect(verified.body).toMatchObject({ ok: true, verified: 2, skipped_numbers: [], verified_at: expect.any(String) });
    expect((await headOf(org)).verified_at?.toISOString()).toBe(verified.body.verified_at);

    const third = await api.issued({ type: 'facture', contact_id: client.id, items: [line('3', '1', 100)] });
    expect(await headOf(org)).toMatchObject({ length: 3, head_hash: third.content_hash, head_document_id: third.id });
    expect((await verifyChain(org.db, org.org.id)).ok).toBe(true);
  });

  it('serializes concurrent finalizations as before: distinct gapless numbers, one chain', async () => {
    const org = await createTestOrg();
    const api = await billingContext(org);
    const client = await api.contact();
    const drafts = [];
    for (let i = 0; i < 12; i += 1) drafts.push(await api.draft({ type: i % 3 ? 'facture' : 'devis', contact_id: client.id, items: [line(`L${i}`, '1', 100 + i)] }));
    const results = await Promise.all(drafts.map((d) => api.finalize(d.id)));
    expect(results.map((r) => r.status)).toEqual(Array(12).fill(200));
    expect(await verifyChain(org.db, org.org.id)).toMatchObject({ ok: true, verified: 12, skipped_numbers: [] });
    expect([(await counterOf(org, 'facture'))!.last_number, (await counterOf(org, 'devis'))!.last_number]).toEqual([8, 4]);
  }, 60_000);
});

// Issue 36: the chain lock is one statement (billing_seal_document, migration 0037). What it answers when it does not
// seal, and the rare path where midnight in Paris passes while a finalization waits for the lock.
describe('the sealing statement', () => {
  it('asked for the lock only, or on another Paris day, writes nothing and says why', async () => {
    const { org, api, client } = await orgWithInvoices(1);
    const draft = await api.draft({ type: 'facture', contact_id: client.id, items: [line('L', '1', 100)] });
    const head = await headOf(org);
    const ask = (today: string, template: boolean) =>
      org.db.transaction(async (tx) => {
        const row = (await tx.select().from(documents).where(eq(documents.id, draft.id)))[0]!;
        const base = { orgId: org.org.id, documentId: draft.id, type: 'facture' as const, year, prefix: 'FAC', today, at: null, eventId: null };
        return sealInChain(tx, { ...base, values: { issue_date: today }, template: template ? sealingTemplate({ ...row, issue_date: today }, []) : null });
      });

    const locked = await ask(todayParis(), false);
    expect(locked).toMatchObject({ outcome: 'locked', number: `FAC-${year}-00002`, sequence: 2, chain_index: 2, prev_hash: head.head_hash, content_hash: null });
    expect(Math.abs(locked.at.getTime() - Date.now())).toBeLessThan(60_000);

    const replan = await ask(addDays(todayParis(), -1), true);
    expect(replan).toMatchObject({ outcome: 'replan', number: null, content_hash: null });
    expect(await headOf(org)).toEqual(head);
    expect((await counterOf(org))!.last_number).toBe(1);
    expect((await documentRow(org.db, draft.id))!).toMatchObject({ status: 'draft', number: null, finalized_at: null });
  });

  // On PGlite the database's clock is this process's Date: only PostgreSQL's can disagree with a faked one.
  it.skipIf(!process.env.DATABASE_URL)('when midnight passed while waiting, the document is dated by the day the lock was taken', async () => {
    const { org, api, client } = await orgWithInvoices(1);
    const today = todayParis();
    const draft = await api.draft({ type: 'facture', contact_id: client.id, issue_date: addDays(today, -2), items: [line('L', '1', 100)] });
    // This process believes it is 23:59:59.9 yesterday in Paris; the database's clock says today.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date(parisInstant(today, 0).getTime() - 100) });
    let res: Awaited<ReturnType<typeof api.finalize>>;
    try {
      expect(todayParis()).toBe(addDays(today, -1));
      res = await api.finalize(draft.id);
    } finally {
      vi.useRealTimers();
    }
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'finalized', number: `FAC-${year}-00002`, issue_date: today, chain_index: 2 });
    expect(todayParis(new Date(res.body.finalized_at))).toBe(today);
    const [event] = (await eventsOf(org, 'invoice.finalized')).slice(-1);
    expect((event!.payload as { object: unknown }).object).toEqual(res.body);
    expect(await verifyChain(org.db, org.org.id)).toMatchObject({ ok: true, verified: 2 });
  });
});
