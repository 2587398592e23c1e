import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, webhookDeliveries } from '@/db/schema';
import { line } from '@/lib/domain/documents/testing';
import { attemptDelivery, createEndpoint } from '@/lib/domain/webhooks';
import { startReceiver } from '@/lib/domain/webhooks/testing';
import { type Seller, siretOf, transmissionFixture } from './testing';

/*
 * Issue 32: nothing changes an emitted event's object or the answer after the event was recorded. The answer of
 * POST /v1/invoices/{id}/finalize, the stored invoice.finalized and its webhook delivery carry the same document, to
 * the value — transmission_status included, for an invoice the PA must get and for one it must not.
 */

const { seller } = transmissionFixture();
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

async function finalizeEverywhere(org: Seller, buyer: Record<string, unknown>) {
  await createEndpoint(org.db, org.org.id, { url: receiver.url, events: ['invoice.finalized'], enabled: true }, { allowPrivate: true });
  const contact = await org.api.contact(buyer);
  const draft = await org.api.draft({ type: 'facture', contact_id: contact.id, items: [line('Conseil', '2', 45_000, '20')] });
  const answer = org.api.expectStatus(await org.api.finalize(draft.id), 200, 'finalize');

  const [event] = await org.db
    .select()
    .from(events)
    .where(and(eq(events.org_id, org.org.id), eq(events.type, 'invoice.finalized'), sql`${events.payload}->'object'->>'id' = ${draft.id}`));
  expect((event!.payload as { object: unknown }).object).toEqual(answer);

  const [delivery] = await org.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.event_id, event!.id));
  expect(await attemptDelivery(org.db, { delivery_id: delivery!.id, attempt: 0 }, { allowPrivate: true, timeoutMs: 5000 })).toBe('succeeded');
  const delivered = receiver.received.map((r) => JSON.parse(r.body) as { id: string; data: { object: unknown } }).find((b) => b.id === event!.id);
  expect(delivered?.data.object).toEqual(answer);
  return answer as { transmission_status: string };
}

describe('the finalize answer is the invoice.finalized payload, and its webhook’s', () => {
  it('an invoice to a French business, e-invoicing on: pending everywhere', async () => {
    const org = await seller();
    expect((await finalizeEverywhere(org, { siret: siretOf('552032534') })).transmission_status).toBe('pending');
  });

  it('an invoice to a private person: not_required everywhere', async () => {
    const org = await seller();
    const answer = await finalizeEverywhere(org, { type: 'particulier', siret: null, company: null, first_name: 'Jeanne', last_name: 'Martin' });
    expect(answer.transmission_status).toBe('not_required');
  });
});
