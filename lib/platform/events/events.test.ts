import { and, asc, eq, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { events, webhookDeliveries } from '@/db/schema';
import { billingContext, line } from '@/lib/domain/documents/testing';
import { createContact } from '@/lib/domain/contacts';
import { createEndpoint } from '@/lib/domain/webhooks';
import { createTestOrg } from '@/lib/testing/fixtures';
import { EVENT_CATALOGUE, EVENT_TYPES, INTERNAL_EVENT_TYPES, isEventType } from './catalogue';
import { recordEvent, recordEvents, recordInternalEvent } from './events';
import { eventRegistry } from './registry';

/** The jobs of one queue whose data names this value (pg-boss's own table). */
const jobsFor = async (db: Awaited<ReturnType<typeof createTestOrg>>['db'], name: string, key: string, value: string) =>
  ((await db.execute(sql`select data from pgboss.job where name = ${name} and data->>${key} = ${value}`)) as unknown as { rows: Array<{ data: unknown }> }).rows;

it('records one event per object in order, in the caller transaction, and none if it rolls back', async () => {
  const { db, org } = await createTestOrg();
  const contact = await createContact(db, org.id, { type: 'particulier', first_name: 'Zoé', last_name: 'Martin' });
  const objects = Array.from({ length: 1000 }, (_, i) => ({ ...contact, notes: `Zoé "${i}" \\ 🎉` }));
  await recordEvents(db, org.id, 'contact.created', objects);
  const rows = await db
    .select()
    .from(events)
    .where(and(eq(events.org_id, org.id), eq(events.type, 'contact.created')))
    .orderBy(asc(events.id));
  // The first row is createContact's own event.
  expect(rows.slice(1).map((r) => r.payload)).toEqual(objects.map((object) => ({ object })));

  await expect(
    db.transaction(async (tx) => {
      await recordEvents(tx, org.id, 'contact.restored', [contact]);
      throw new Error('abort');
    }),
  ).rejects.toThrow('abort');
  expect(await db.select().from(events).where(and(eq(events.org_id, org.id), eq(events.type, 'contact.restored')))).toEqual([]);
});

it('accepts only catalogued types, each with the payload its owner declares', async () => {
  const { db, org } = await createTestOrg();
  await expect(recordEvent(db, org.id, 'bulk.test' as never, {})).rejects.toThrow(/not in the catalogue/);
  await expect(recordEvent(db, org.id, 'contact.created', { id: 'not a contact' })).rejects.toThrow(/contact.created payload does not match/);
  await expect(recordEvents(db, org.id, 'contact.updated', [{}])).rejects.toThrow(/does not match/);
  expect(await db.select().from(events).where(eq(events.org_id, org.id))).toEqual([]);
});

it('records an internal event only as its subscribers’ jobs: no outbox row, no webhook delivery, no public token', async () => {
  const { db, org } = await createTestOrg();
  expect(INTERNAL_EVENT_TYPES).toEqual(['pdf.document_rendered', 'pdf.document_render_failed']);
  for (const type of INTERNAL_EVENT_TYPES) {
    expect(EVENT_TYPES).not.toContain(type);
    expect(isEventType(type)).toBe(false);
    expect(eventRegistry().schemas[type], type).toBeDefined();
  }
  const documentId = '0194a000-0000-7000-8000-00000000abcd';
  const object = { document_id: documentId, type: 'facture', number: 'F-2026-00001', transmission_required: true, sha256: 'ab', size: 1, facturx_profile: 'EN 16931' };
  await expect(recordEvent(db, org.id, 'pdf.document_rendered' as never, object)).rejects.toThrow(/internal: record it with recordInternalEvent/);
  await expect(recordInternalEvent(db, org.id, 'pdf.document_rendered', { ...object, size: 'one' })).rejects.toThrow(/does not match/);
  const subscriber = eventRegistry().subscriptions.get('pdf.document_rendered')?.[0];
  expect(subscriber).toBeDefined();
  // An endpoint that takes every event: an internal one still reaches none.
  await createEndpoint(db, org.id, { url: 'http://127.0.0.1:9/hook', events: ['*'], enabled: true }, { allowPrivate: true });
  await db.transaction((tx) => recordInternalEvent(tx, org.id, 'pdf.document_rendered', object));
  expect(await jobsFor(db, subscriber!.job.name, 'document_id', documentId)).toHaveLength(1);
  expect(await db.select().from(events).where(eq(events.org_id, org.id))).toEqual([]);
  expect(await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.org_id, org.id))).toEqual([]);
});

it('has a meaning and an owner for every token of DESIGN §5, and a schema for each one an installed module owns', () => {
  expect(EVENT_TYPES).toHaveLength(32);
  const { schemas } = eventRegistry();
  for (const type of EVENT_TYPES) {
    expect(EVENT_CATALOGUE[type].meaning.length, type).toBeGreaterThan(10);
    if (['contacts', 'documents', 'payments', 'sending'].includes(EVENT_CATALOGUE[type].owner)) expect(schemas[type], type).toBeDefined();
  }
});

it("writes the subscribers' jobs in the event's transaction: with the change, never without it", async () => {
  const org = await createTestOrg();
  const { db } = org;
  const render = eventRegistry().subscriptions.get('invoice.finalized')?.find((s) => s.job.name === 'pdf.render-document');
  expect(render).toBeDefined();
  const api = await billingContext(org);
  const contact = await api.contact();
  const body = { type: 'facture', contact_id: contact.id, items: [line('Audit', '1', 10_000)] };
  const finalized = await api.issued(body);
  const draft = await api.draft(body);

  await expect(
    db.transaction(async (tx) => {
      await recordEvent(tx, org.org.id, 'invoice.finalized', { ...draft, status: 'finalized' });
      throw new Error('abort');
    }),
  ).rejects.toThrow('abort');

  expect(await jobsFor(db, 'pdf.render-document', 'document_id', finalized.id)).toEqual([{ data: { org_id: org.org.id, document_id: finalized.id } }]);
  expect(await jobsFor(db, 'pdf.render-document', 'document_id', draft.id)).toEqual([]);
});
