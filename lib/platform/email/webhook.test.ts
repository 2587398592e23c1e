import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { Webhook } from 'svix';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as route from '@/app/api/webhooks/resend/route';
import type { Db } from '@/db/client';
import { emails, emailWebhookEvents } from '@/db/schema';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { queueEmail } from './queue-email';
import { sendQueuedEmail } from './send';
import { emailRow, type FakeResend, invoiceData, startFakeResend, useResend } from './testing';

const SECRET = `whsec_${Buffer.from('resend webhook secret for tests').toString('base64')}`;

let org: TestOrg;
let db: Db;
let fake: FakeResend;
let restore: () => void;
beforeAll(async () => {
  org = await createTestOrg();
  db = org.db;
  fake = await startFakeResend();
  restore = useResend(fake);
  process.env.RESEND_WEBHOOK_SECRET = SECRET;
});
afterAll(async () => {
  restore();
  delete process.env.RESEND_WEBHOOK_SECRET;
  await fake.close();
});

/** An e-mail sent through (fake) Resend: status sent, provider id recorded. */
async function sentEmail() {
  const queued = await db.transaction((tx) => queueEmail(tx, org.org.id, { to: ['client@example.fr'], template: 'document_sent', data: invoiceData(), language: 'fr' }));
  expect(await sendQueuedEmail(db, queued.id)).toBe('sent');
  return emailRow(db, queued.id);
}

/** Posts a Resend event signed as Resend (Svix) would, or with the given signature headers. */
function post(event: { type: string; created_at?: string; data: Record<string, unknown> }, options: { id?: string; secret?: string; headers?: Record<string, string>; body?: string } = {}) {
  const id = options.id ?? `msg_${randomUUID()}`;
  const body = options.body ?? JSON.stringify({ created_at: new Date().toISOString(), ...event });
  const now = new Date();
  const headers = options.headers ?? {
    'svix-id': id,
    'svix-timestamp': String(Math.floor(now.getTime() / 1000)),
    'svix-signature': new Webhook(options.secret ?? SECRET).sign(id, now, body),
  };
  return call(route.POST as never, 'POST', '/api/webhooks/resend', { rawBody: body, headers: { 'content-type': 'application/json', ...headers } });
}

describe('POST /api/webhooks/resend', () => {
  it('marks an e-mail delivered on email.delivered (valid signature)', async () => {
    const email = await sentEmail();
    const res = await post({ type: 'email.delivered', created_at: '2026-03-01T10:00:05.000Z', data: { email_id: email.provider_id, to: email.to } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: true, duplicate: false, updated: 1 });
    expect(res.headers.get('x-request-id')).toBeTruthy();
    const row = await emailRow(db, email.id);
    expect(row).toMatchObject({ status: 'delivered', delivered_at: new Date('2026-03-01T10:00:05.000Z') });
  });

  it('marks a bounce with its reason, and never moves a bounced or delivered e-mail back to sent', async () => {
    const email = await sentEmail();
    await post({ type: 'email.bounced', data: { email_id: email.provider_id, bounce: { message: 'Mailbox does not exist', type: 'Permanent', subType: 'General' } } });
    expect(await emailRow(db, email.id)).toMatchObject({ status: 'bounced', last_error: 'bounced (Permanent/General): Mailbox does not exist' });
    const late = await post({ type: 'email.sent', data: { email_id: email.provider_id } });
    expect(late.body).toMatchObject({ duplicate: false, updated: 0 });
    expect((await emailRow(db, email.id)).status).toBe('bounced');
  });

  it('applies email.sent to a queued e-mail found by the tag we sent, before its provider id is recorded', async () => {
    const queued = await db.transaction((tx) => queueEmail(tx, org.org.id, { to: ['client@example.fr'], template: 'document_sent', data: invoiceData(), language: 'en' }));
    const res = await post({ type: 'email.sent', created_at: '2026-03-01T10:00:00.000Z', data: { email_id: 'prov_123', tags: [{ name: 'paraphe_email_id', value: queued.id }] } });
    expect(res.body).toMatchObject({ updated: 1 });
    expect(await emailRow(db, queued.id)).toMatchObject({ status: 'sent', provider_id: 'prov_123', sent_at: new Date('2026-03-01T10:00:00.000Z') });
    // The job finds it sent and sends nothing.
    fake.reset();
    expect(await sendQueuedEmail(db, queued.id)).toBe('skipped');
    expect(fake.requests).toHaveLength(0);
  });

  it('ignores email.delivery_delayed and events about unknown e-mails, acknowledging them', async () => {
    const email = await sentEmail();
    const delayed = await post({ type: 'email.delivery_delayed', data: { email_id: email.provider_id } });
    expect(delayed.status).toBe(200);
    expect(delayed.body).toEqual({ received: true, duplicate: false, updated: 0 });
    expect((await emailRow(db, email.id)).status).toBe('sent');
    const unknown = await post({ type: 'email.delivered', data: { email_id: 'not-ours' } });
    expect(unknown.body).toEqual({ received: true, duplicate: false, updated: 0 });
  });

  it('applies a webhook id once: a replay is acknowledged and changes nothing', async () => {
    const email = await sentEmail();
    const id = `msg_${randomUUID()}`;
    const event = { type: 'email.bounced', data: { email_id: email.provider_id, bounce: { message: 'no such user' } } };
    expect((await post(event, { id })).body).toEqual({ received: true, duplicate: false, updated: 1 });
    // Someone corrects the record in between: the replayed delivery must not bounce it again.
    await db.update(emails).set({ status: 'delivered' }).where(eq(emails.id, email.id));
    const replay = await post(event, { id });
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual({ received: true, duplicate: true, updated: 0 });
    expect((await emailRow(db, email.id)).status).toBe('delivered');
    expect(await db.select().from(emailWebhookEvents).where(eq(emailWebhookEvents.id, id))).toHaveLength(1);
  });

  it('answers 400 to a bad signature, another secret, an altered body or missing headers, changing nothing', async () => {
    const email = await sentEmail();
    const event = { type: 'email.delivered', data: { email_id: email.provider_id } };
    const body = JSON.stringify(event);
    const id = `msg_${randomUUID()}`;
    const now = new Date();
    const signed = { 'svix-id': id, 'svix-timestamp': String(Math.floor(now.getTime() / 1000)), 'svix-signature': new Webhook(SECRET).sign(id, now, body) };

    const attempts = [
      post(event, { secret: `whsec_${Buffer.from('another secret').toString('base64')}` }),
      post(event, { body: body.replace('email.delivered', 'email.bounced'), headers: signed }),
      post(event, { headers: { ...signed, 'svix-signature': 'v1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=' } }),
      post(event, { headers: {} }),
      // A genuine signature from long ago (outside the tolerance): a replay attack.
      post(event, { headers: { ...signed, 'svix-timestamp': String(Math.floor(now.getTime() / 1000) - 3600), 'svix-signature': new Webhook(SECRET).sign(id, new Date(now.getTime() - 3600_000), body) } }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: 'invalid_signature', message: 'The webhook signature does not verify.', field: null });
    }
    expect((await emailRow(db, email.id)).status).toBe('sent');
    expect(await db.select().from(emailWebhookEvents).where(eq(emailWebhookEvents.id, id))).toHaveLength(0);
    // The untouched, correctly signed delivery still applies.
    expect((await post(event, { body, headers: signed })).body).toMatchObject({ updated: 1 });
  });

  it('answers 503 when no secret is configured', async () => {
    delete process.env.RESEND_WEBHOOK_SECRET;
    try {
      const res = await post({ type: 'email.delivered', data: { email_id: 'x' } });
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('webhook_not_configured');
    } finally {
      process.env.RESEND_WEBHOOK_SECRET = SECRET;
    }
  });
});
