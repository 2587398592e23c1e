import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { documents, events } from '@/db/schema';
import { eraseContact } from '@/lib/domain/contacts';
import { billingContext } from '@/lib/domain/documents/testing';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { enqueueDueTemplates } from './jobs';
import { generateDueTemplates } from './schedule';
import { activateRecurringTemplate, pauseRecurringTemplate } from './templates';
import { generationsOf, recurringApi, templateBody, templateRow } from './testing';

/*
 * The schedule on a controlled clock: each call says what time it is (10:00 in Paris on the day named). The test
 * org narrows the run (the database is shared with other test files).
 */
let org: TestOrg;
let b: Awaited<ReturnType<typeof billingContext>>;
let api: ReturnType<typeof recurringApi>;
beforeAll(async () => {
  org = await createTestOrg();
  b = await billingContext(org);
  api = recurringApi(b.token);
});

const at = (day: string) => new Date(`${day}T09:00:00Z`);
const schedule = (day: string) => generateDueTemplates(org.db, { now: at(day), orgId: org.org.id });
const template = async (extra: Record<string, unknown>) => {
  const contact = await b.contact({ email: 'abonne@client.example' });
  const res = await api.create(templateBody(contact.id, extra));
  expect(res.status).toBe(201);
  return res.body as { id: string; contact_id: string };
};
const periods = async (id: string) => (await generationsOf(org, id)).map((g) => [g.period_start, g.status]);
const issueDates = async (id: string) => {
  const gens = await generationsOf(org, id);
  const docs = await Promise.all(gens.map(async (g) => (await org.db.select().from(documents).where(eq(documents.id, g.document_id!)))[0]!));
  return docs.map((d) => [d.type, d.status, d.issue_date]);
};

describe('the hourly schedule', () => {
  it('catches up three missed months once each, in order, keeping the anchor day; a second run finds nothing', async () => {
    const t = await template({ next_generation_date: '2026-01-31' });
    const made = await schedule('2026-04-15');
    expect(made.map((m) => m.generation.period_start)).toEqual(['2026-01-31', '2026-02-28', '2026-03-31']);
    expect(await periods(t.id)).toEqual([
      ['2026-01-31', 'generated'],
      ['2026-02-28', 'generated'],
      ['2026-03-31', 'generated'],
    ]);
    expect(await issueDates(t.id)).toEqual([
      ['facture', 'draft', '2026-01-31'],
      ['facture', 'draft', '2026-02-28'],
      ['facture', 'draft', '2026-03-31'],
    ]);
    expect((await templateRow(org, t.id)).next_generation_date).toBe('2026-04-30');
    expect(await schedule('2026-04-15')).toEqual([]);
    // The day comes (10:00 in Paris): the April period.
    expect((await schedule('2026-04-30')).map((m) => m.generation.period_start)).toEqual(['2026-04-30']);
    const generated = await org.db
      .select()
      .from(events)
      .where(and(eq(events.org_id, org.org.id), eq(events.type, 'recurring_invoice.generated'), sql`${events.payload}->'object'->>'template_id' = ${t.id}`));
    expect(generated).toHaveLength(4);
  });

  it('quarterly and yearly templates advance by their frequency, 29 February included', async () => {
    const q = await template({ frequency: 'quarterly', next_generation_date: '2026-11-30' });
    const y = await template({ frequency: 'yearly', next_generation_date: '2028-02-29' });
    await schedule('2027-03-01');
    expect(await periods(q.id)).toEqual([
      ['2026-11-30', 'generated'],
      ['2027-02-28', 'generated'],
    ]);
    expect((await templateRow(org, q.id)).next_generation_date).toBe('2027-05-30');
    expect(await periods(y.id)).toEqual([]);
    await schedule('2029-03-01');
    expect(await periods(y.id)).toEqual([
      ['2028-02-29', 'generated'],
      ['2029-02-28', 'generated'],
    ]);
    expect((await templateRow(org, y.id)).next_generation_date).toBe('2030-02-28');
  });

  it('a pause across a period generates nothing; reactivation resumes at the next anchor date without backfill', async () => {
    const t = await template({ next_generation_date: '2027-06-30' });
    await pauseRecurringTemplate(org.db, org.org.id, t.id, at('2027-06-20'));
    expect(await schedule('2027-07-05')).toEqual([]);
    expect(await periods(t.id)).toEqual([]);
    const active = await activateRecurringTemplate(org.db, org.org.id, t.id, at('2027-08-10'));
    expect(active).toMatchObject({ status: 'active', next_generation_date: '2027-08-30' });
    expect(await schedule('2027-08-10')).toEqual([]);
    await schedule('2027-08-30');
    expect(await periods(t.id)).toEqual([['2027-08-30', 'generated']]);
  });

  it('two workers racing on one database generate each period once', async () => {
    // An org of its own: the other tests' templates are due by then too.
    const o = await createTestOrg();
    const ob = await billingContext(o);
    const c = await ob.contact();
    const oapi = recurringApi(ob.token);
    const ts = [];
    for (const day of ['2030-01-31', '2030-01-15', '2030-02-28']) ts.push((await oapi.create(templateBody(c.id, { next_generation_date: day }))).body as { id: string });
    const race = () => generateDueTemplates(o.db, { now: at('2030-03-31'), orgId: o.org.id });
    const [one, two] = await Promise.all([race(), race()]);
    const all = [...one, ...two].map((m) => `${m.generation.template_id}:${m.generation.period_start}`);
    expect(new Set(all).size).toBe(all.length);
    expect(all).toHaveLength(3 + 3 + 2);
    expect((await generationsOf(o, ts[0]!.id)).map((g) => [g.period_start, g.status])).toEqual([
      ['2030-01-31', 'generated'],
      ['2030-02-28', 'generated'],
      ['2030-03-31', 'generated'],
    ]);
    const docs = await org.db
      .select({ n: sql<number>`count(*)::int` })
      .from(documents)
      .where(sql`${documents.id} in (select document_id from recurring_generations where template_id in (${sql.join(ts.map((t) => sql`${t.id}::uuid`), sql`, `)}))`);
    expect(docs[0]!.n).toBe(8);
  });

  it('an erased contact fails its template (recorded, paused, recurring_invoice.failed) and stops no other', async () => {
    const bad = await template({ next_generation_date: '2031-01-10' });
    const good = await template({ next_generation_date: '2031-01-10' });
    await eraseContact(org.db, org.org.id, bad.contact_id);
    const made = await schedule('2031-01-10');
    expect(made.map((m) => [m.generation.template_id, m.generation.status])).toEqual(
      expect.arrayContaining([
        [bad.id, 'failed'],
        [good.id, 'generated'],
      ]),
    );
    const gens = await generationsOf(org, bad.id);
    expect(gens).toEqual([expect.objectContaining({ period_start: '2031-01-10', status: 'failed', stage: 'generate', document_id: null, error: expect.stringContaining('erased') })]);
    const view = (await api.get(bad.id)).body;
    expect(view).toMatchObject({ status: 'paused', next_generation_date: '2031-01-10', last_error: expect.stringContaining('this contact was erased'), last_error_at: expect.any(String) });
    const failed = await org.db
      .select()
      .from(events)
      .where(and(eq(events.org_id, org.org.id), eq(events.type, 'recurring_invoice.failed')));
    expect(failed.map((e) => (e.payload as { object: { template_id: string } }).object.template_id)).toContain(bad.id);
    // Paused: the next hourly runs leave it alone.
    expect(await schedule('2031-01-11')).toEqual([]);
  });

  it('the hourly job fans out one generate job per due template', async () => {
    const o = await createTestOrg();
    const ob = await billingContext(o);
    const c = await ob.contact();
    const oapi = recurringApi(ob.token);
    const due = (await oapi.create(templateBody(c.id, { next_generation_date: '2026-01-31' }))).body;
    await oapi.create(templateBody(c.id, { next_generation_date: '2099-01-31' }));
    expect(await enqueueDueTemplates(o.db, { now: at('2026-02-01'), orgId: o.org.id })).toBe(1);
    const jobs = await o.db.execute(sql`select data, singleton_key from pgboss.job where name = 'recurring.generate' and data->>'org_id' = ${o.org.id}`);
    expect((jobs as unknown as { rows: unknown[] }).rows).toEqual([{ data: { org_id: o.org.id, template_id: due.id }, singleton_key: `${due.id}:2026-01-31` }]);
  });
});
