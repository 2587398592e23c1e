import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { emails, memberships, users, webhookDeliveries, webhookEndpoints } from '@/db/schema';
import { createContact } from '@/lib/domain/contacts';
import { renderEmail } from '@/lib/platform/email';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { attemptDelivery } from './deliver';
import { createEndpoint } from './endpoints';
import { startReceiver, status } from './testing';

let org: TestOrg;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  org = await createTestOrg();
  receiver = await startReceiver([status(503)]);
});
afterAll(() => receiver.close());

const member = async (role: 'owner' | 'admin' | 'member') => {
  const email = `${role}-${randomUUID().slice(0, 8)}@example.fr`;
  const [user] = await org.db.insert(users).values({ email, password_hash: 'unused' }).returning();
  await org.db.insert(memberships).values({ org_id: org.org.id, user_id: user!.id, role });
  return email;
};

it('an endpoint failing for 5 days is disabled once, and the owners and admins are e-mailed', async () => {
  const owner = await member('owner');
  const admin = await member('admin');
  await member('member');
  const ep = await createEndpoint(org.db, org.org.id, { url: receiver.url, events: ['*'], enabled: true }, { allowPrivate: true });
  const since = new Date(Date.now() - 5 * 86_400_000 + 60_000);
  await org.db.update(webhookEndpoints).set({ failing_since: since }).where(eq(webhookEndpoints.id, ep.id));
  await createContact(org.db, org.org.id, { type: 'particulier', first_name: 'Zoé', last_name: 'Martin' });
  await createContact(org.db, org.org.id, { type: 'particulier', first_name: 'Léa', last_name: 'Petit' });
  const [first, second] = await org.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpoint_id, ep.id)).orderBy(webhookDeliveries.id);
  const options = { allowPrivate: true, timeoutMs: 2000, random: () => 0.5 };

  // Four days and 23 hours: still enabled.
  expect(await attemptDelivery(org.db, { delivery_id: first!.id, attempt: 0 }, options)).toBe('retry');
  expect((await org.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, ep.id)))[0]).toMatchObject({ enabled: true, failing_since: since });

  const later = new Date(Date.now() + 120_000);
  expect(await attemptDelivery(org.db, { delivery_id: second!.id, attempt: 0 }, { ...options, now: () => later })).toBe('retry');
  expect((await org.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, ep.id)))[0]).toMatchObject({ enabled: false, disabled_reason: 'failing' });
  const sent = await org.db.select().from(emails).where(and(eq(emails.org_id, org.org.id), eq(emails.template, 'webhook_endpoint_disabled')));
  expect(sent).toHaveLength(1);
  expect(sent[0]!.to.sort()).toEqual([owner, admin].sort());
  expect(sent[0]!.subject).toBe('Webhook désactivé : votre point de réception ne répond plus');
  expect(sent[0]!.html).toContain(receiver.url);
  expect(sent[0]!.html).toContain('HTTP 503');

  // Its pending retries then fail unsent, and no second notice is written.
  expect(await attemptDelivery(org.db, { delivery_id: first!.id, attempt: 1 }, options)).toBe('skipped');
  expect(await org.db.select().from(emails).where(and(eq(emails.org_id, org.org.id), eq(emails.template, 'webhook_endpoint_disabled')))).toHaveLength(1);
});

it('renders the notice in English too, and refuses data that is not one', async () => {
  const data = { endpoint_url: 'https://hooks.example.com/x', failing_since: '2026-11-20T08:00:00Z', last_failure: 'timeout after 15000 ms' };
  const en = await renderEmail('webhook_endpoint_disabled', data, 'en');
  expect(en.subject).toBe('Webhook disabled: your endpoint stopped answering');
  expect(en.text).toContain('https://hooks.example.com/x');
  expect(en.text).toContain('timeout after 15000 ms');
  await expect(renderEmail('webhook_endpoint_disabled', { ...data, failing_since: 'yesterday' }, 'fr')).rejects.toMatchObject({ status: 422, field: 'data.failing_since' });
});
