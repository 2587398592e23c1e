import { eq } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { smsMessages } from '@/db/schema';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { listOutboxSms, queueSms, registerSmsProvider, sendQueuedSms } from './index';

let org: TestOrg;
let other: TestOrg;
beforeAll(async () => {
  [org, other] = await Promise.all([createTestOrg(), createTestOrg()]);
});
afterEach(() => {
  delete process.env.SMS_PROVIDER;
});

/** A local fake of a provider: it keeps what it was given, and refuses when told to. */
const handed: Array<{ to: string; body: string }> = [];
let refuse = 0;
registerSmsProvider({
  name: 'fake-sms',
  async send(message) {
    if (refuse > 0) {
      refuse--;
      throw new Error('provider unreachable');
    }
    handed.push({ to: message.to, body: message.body });
    return { providerId: `fake-${message.id}` };
  },
});

describe('lib/domain/sms', () => {
  it('without SMS_PROVIDER: the message is in the org’s outbox, sent, and no other org sees it', async () => {
    const sms = await queueSms(org.db, org.org.id, { to: '+33612345678', body: 'Votre code : 123456', purpose: 'signature_code' });
    expect(sms).toMatchObject({ transport: 'outbox', status: 'sent', provider: null, to: '+33612345678' });
    expect(sms.sent_at).toBeInstanceOf(Date);
    const page = await listOutboxSms(org.db, org.org.id);
    expect(page.items.map((m) => m.id)).toContain(sms.id);
    expect((await listOutboxSms(other.db, other.org.id)).items.map((m) => m.id)).not.toContain(sms.id);
  });

  it('refuses a number that is not E.164', async () => {
    await expect(queueSms(org.db, org.org.id, { to: '0612345678', body: 'x', purpose: 'test' })).rejects.toMatchObject({ status: 422, field: 'to' });
  });

  it('with a provider: queued with its job, handed over once, retried after a failure, then failed at the last attempt', async () => {
    process.env.SMS_PROVIDER = 'fake-sms';
    const sms = await queueSms(org.db, org.org.id, { to: '+33700000001', body: 'Bonjour', purpose: 'test' });
    expect(sms).toMatchObject({ transport: 'provider', provider: 'fake-sms', status: 'queued' });
    const jobs = await org.db.execute(`select data from pgboss.job where name = 'sms.send' and data->>'sms_id' = '${sms.id}'`);
    expect((jobs as unknown as { rows: unknown[] }).rows).toHaveLength(1);
    refuse = 1;
    await expect(sendQueuedSms(org.db, sms.id)).rejects.toThrow('provider unreachable');
    expect(await sendQueuedSms(org.db, sms.id)).toBe('sent');
    expect(await sendQueuedSms(org.db, sms.id)).toBe('skipped');
    expect(handed.filter((h) => h.to === '+33700000001')).toHaveLength(1);
    const [row] = await org.db.select().from(smsMessages).where(eq(smsMessages.id, sms.id));
    expect(row).toMatchObject({ status: 'sent', provider_id: `fake-${sms.id}`, attempts: 2, last_error: null });
    expect((await listOutboxSms(org.db, org.org.id)).items.map((m) => m.id)).not.toContain(sms.id);

    const failing = await queueSms(org.db, org.org.id, { to: '+33700000002', body: 'Bonjour', purpose: 'test' });
    refuse = 3;
    await expect(sendQueuedSms(org.db, failing.id)).rejects.toThrow();
    await expect(sendQueuedSms(org.db, failing.id)).rejects.toThrow();
    expect(await sendQueuedSms(org.db, failing.id)).toBe('failed');
    const [failed] = await org.db.select().from(smsMessages).where(eq(smsMessages.id, failing.id));
    expect(failed).toMatchObject({ status: 'failed', attempts: 3, last_error: 'provider unreachable' });
  });

  it('an unknown SMS_PROVIDER is a plain configuration error', async () => {
    process.env.SMS_PROVIDER = 'nope';
    const sms = await queueSms(org.db, org.org.id, { to: '+33700000003', body: 'Bonjour', purpose: 'test' });
    await expect(sendQueuedSms(org.db, sms.id)).rejects.toThrow(/SMS_PROVIDER=nope: no such SMS provider/);
  });
});
