import { addDays, parisEndOfDay, todayParis } from '@/lib/platform/dates';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { signatureEnvelopes, signatureSigners } from '@/db/schema';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { verifyAuditChain } from './audit';
import { expireDueEnvelopes } from './expiry';
import { envelopeApi, envelopeRow, eventsOfType, mailsTo, pdfRow, signersOf } from './testing';
import { sendDueSignatureReminders } from './reminders';
import { decryptSignerToken, hashSignerToken } from './tokens';

let org: TestOrg;
let other: TestOrg;
let documentId: string;
let api: ReturnType<typeof envelopeApi>;

beforeAll(async () => {
  [org, other] = await Promise.all([createTestOrg(), createTestOrg()]);
  documentId = await pdfRow(org);
  api = envelopeApi(org);
});

let n = 0;
/** A sent envelope with signers at these orders, each with an address of its own. */
async function sent(orders: number[], extra: Record<string, unknown> = {}) {
  n++;
  const signers = orders.map((routing_order, i) => ({ email: `r${n}-${i}@exemple.fr`, full_name: `Signataire ${i}`, routing_order }));
  const created = await api.create({ source_kind: 'document', source_document_id: documentId, subject: `Dossier ${n}`, signers, ...extra });
  expect(created.status).toBe(201);
  const res = await api.send(created.body.id);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { id: created.body.id as string, emails: signers.map((s) => s.email) };
}
const past = () => new Date(Date.now() - 60_000);

describe('POST …/remind', () => {
  it('re-sends the link to the signers whose turn it is and who have not signed; reminder_count + 1, envelope.reminded', async () => {
    const env = await sent([0, 0, 1]);
    const [first] = await signersOf(org, env.id);
    await org.db.update(signatureSigners).set({ status: 'opened' }).where(eq(signatureSigners.id, first!.id));
    const res = await api.remind(env.id);
    expect(res.status).toBe(200);
    expect(res.body.reminder_count).toBe(1);
    for (const address of env.emails.slice(0, 2)) {
      const mails = await mailsTo(org, address);
      expect(mails.map((m) => m.template)).toEqual(['signature_request', 'signature_reminder']);
      // The same link as the request's: the token is not replaced.
      const url = mails[0]!.text.match(/\/sign\/([A-Za-z0-9_-]{43})/)![1]!;
      expect(mails[1]!.text).toContain(`/sign/${url}`);
    }
    expect(await mailsTo(org, env.emails[2]!)).toEqual([]);
    const last = (await api.timeline(env.id)).body.data.at(-1);
    expect(last).toMatchObject({ event_type: 'envelope.reminded', event_data: { automatic: false, reminder_count: 1, api_key_id: expect.any(String) } });
    expect(last.event_data.signer_ids).toHaveLength(2);
    expect(await verifyAuditChain(org.db, env.id)).toMatchObject({ ok: true });
  });

  it('refuses a draft, a cancelled envelope (409 envelope_not_active), another org (404), the read scope (403)', async () => {
    const created = await api.create({ source_kind: 'document', source_document_id: documentId, signers: [{ email: 'x@exemple.fr' }] });
    expect(await api.remind(created.body.id)).toMatchObject({ status: 409, body: { code: 'envelope_not_active' } });
    const env = await sent([0]);
    expect((await envelopeApi(other).remind(env.id)).status).toBe(404);
    expect((await envelopeApi(org, ['signature:read']).remind(env.id)).status).toBe(403);
    await api.cancel(env.id);
    expect(await api.remind(env.id)).toMatchObject({ status: 409, body: { code: 'envelope_not_active' } });
  });
});

describe('automatic reminders', () => {
  it('every reminder_interval_hours up to reminder_max_count (default one, 48 h after the turn opened)', async () => {
    const env = await sent([0]);
    const row = await envelopeRow(org, env.id);
    const wait = row.next_reminder_at!.getTime() - row.sent_at!.getTime();
    expect(Math.abs(wait - 48 * 3_600_000)).toBeLessThan(5_000);
    // Not due yet: nothing.
    await sendDueSignatureReminders(org.db);
    expect((await envelopeRow(org, env.id)).reminder_count).toBe(0);

    await org.db.update(signatureEnvelopes).set({ next_reminder_at: past() }).where(eq(signatureEnvelopes.id, env.id));
    expect(await sendDueSignatureReminders(org.db)).toBeGreaterThanOrEqual(1);
    const after = await envelopeRow(org, env.id);
    expect(after.reminder_count).toBe(1);
    expect(after.next_reminder_at).toBeNull();
    expect((await mailsTo(org, env.emails[0]!)).map((m) => m.template)).toEqual(['signature_request', 'signature_reminder']);
    expect((await api.timeline(env.id)).body.data.at(-1)).toMatchObject({ event_type: 'envelope.reminded', event_data: { automatic: true, ip: null } });
    // The maximum reached: never again.
    await org.db.update(signatureEnvelopes).set({ next_reminder_at: past() }).where(eq(signatureEnvelopes.id, env.id));
    await sendDueSignatureReminders(org.db);
    expect((await envelopeRow(org, env.id)).reminder_count).toBe(1);
  });

  it('follows the envelope’s own cadence and maximum', async () => {
    const env = await sent([0], { reminder_interval_hours: 6, reminder_max_count: 2 });
    const row = await envelopeRow(org, env.id);
    expect(Math.abs(row.next_reminder_at!.getTime() - row.sent_at!.getTime() - 6 * 3_600_000)).toBeLessThan(5_000);
    await org.db.update(signatureEnvelopes).set({ next_reminder_at: past() }).where(eq(signatureEnvelopes.id, env.id));
    await sendDueSignatureReminders(org.db);
    const once = await envelopeRow(org, env.id);
    expect(once.reminder_count).toBe(1);
    expect(Math.abs(once.next_reminder_at!.getTime() - Date.now() - 6 * 3_600_000)).toBeLessThan(10_000);
    const none = await sent([0], { reminder_max_count: 0 });
    expect((await envelopeRow(org, none.id)).next_reminder_at).toBeNull();
  });
});

describe('expiry and reactivation', () => {
  it('expires past expires_at: links killed, envelope.expired, signature.envelope.expired, e-mails to the notified signers and the sender', async () => {
    const env = await sent([0, 1], { reply_to: 'expediteur@exemple.fr' });
    await expireDueEnvelopes(org.db);
    expect((await envelopeRow(org, env.id)).status).toBe('sent');
    await org.db.update(signatureEnvelopes).set({ expires_at: past() }).where(eq(signatureEnvelopes.id, env.id));
    expect(await expireDueEnvelopes(org.db)).toBeGreaterThanOrEqual(1);
    const row = await envelopeRow(org, env.id);
    expect(row).toMatchObject({ status: 'expired', next_reminder_at: null });
    expect(row.expired_at).toBeInstanceOf(Date);
    expect((await signersOf(org, env.id)).map((s) => s.token_hash)).toEqual([null, null]);
    expect((await mailsTo(org, env.emails[0]!)).map((m) => m.template)).toEqual(['signature_request', 'signature_expired']);
    // The second signer's turn never came: no e-mail.
    expect(await mailsTo(org, env.emails[1]!)).toEqual([]);
    const sender = (await mailsTo(org, 'expediteur@exemple.fr')).filter((m) => m.subject.includes(`Dossier ${n}`));
    expect(sender).toHaveLength(1);
    expect(sender[0]!.text).toContain(`/signature/${env.id}`);
    expect((await api.timeline(env.id)).body.data.at(-1).event_type).toBe('envelope.expired');
    expect((await eventsOfType(org, 'signature.envelope.expired')).map((e) => (e.payload as { object: { id: string } }).object)).toContainEqual(
      expect.objectContaining({ id: env.id, status: 'expired', signer_count: 2 }),
    );
    expect(await api.cancel(env.id)).toMatchObject({ status: 409, body: { code: 'envelope_not_active' } });
  });

  it('reactivates an expired envelope with fresh links (409 envelope_not_expired otherwise; 422 for a past expires_at)', async () => {
    const env = await sent([0, 1]);
    expect(await api.reactivate(env.id)).toMatchObject({ status: 409, body: { code: 'envelope_not_expired' } });
    const [before] = await signersOf(org, env.id);
    await org.db.update(signatureEnvelopes).set({ expires_at: past() }).where(eq(signatureEnvelopes.id, env.id));
    await expireDueEnvelopes(org.db);
    expect((await envelopeApi(other).reactivate(env.id)).status).toBe(404);
    expect(await api.reactivate(env.id, { expires_at: '2020-01-01T00:00:00Z' })).toMatchObject({ status: 422, body: { field: 'expires_at' } });
    const res = await api.reactivate(env.id, { expires_at: '2099-06-01T12:00:00Z' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'sent', expires_at: '2099-06-01T12:00:00.000Z' });
    expect(res.body.signers.map((s: { status: string; token_expires_at: string | null }) => [s.status, s.token_expires_at])).toEqual([
      ['notified', '2099-06-01T12:00:00.000Z'],
      ['waiting', null],
    ]);
    const [after] = await signersOf(org, env.id);
    expect(after!.token_hash).not.toBeNull();
    expect(after!.token_hash).not.toBe(before!.token_hash);
    const raw = decryptSignerToken(after!.token_ciphertext, after!.token_hash)!;
    expect(hashSignerToken(raw)).toBe(after!.token_hash);
    const mails = await mailsTo(org, env.emails[0]!);
    expect(mails.map((m) => m.template)).toEqual(['signature_request', 'signature_expired', 'signature_request']);
    expect(mails[2]!.text).toContain(`/sign/${raw}`);
    const types = (await api.timeline(env.id)).body.data.map((e: { event_type: string }) => e.event_type);
    expect(types.slice(-3)).toEqual(['envelope.expired', 'envelope.reactivated', 'signer.notified']);
    expect(await verifyAuditChain(org.db, env.id)).toMatchObject({ ok: true });
    // Without expires_at: the end of the Paris day 30 days from now.
    await org.db.update(signatureEnvelopes).set({ expires_at: past() }).where(eq(signatureEnvelopes.id, env.id));
    await expireDueEnvelopes(org.db);
    const again = await api.reactivate(env.id);
    expect(again.body.expires_at).toBe(parisEndOfDay(addDays(todayParis(), 30)));
  });

  it('reactivating an envelope past its expiry that the job has not reached yet expires it first, in the same transaction', async () => {
    const env = await sent([0]);
    await org.db.update(signatureEnvelopes).set({ expires_at: past() }).where(eq(signatureEnvelopes.id, env.id));
    // A refused reactivation changes nothing: the envelope is still as the job left it (not expired yet).
    expect(await api.reactivate(env.id, { expires_at: '2020-01-01T00:00:00Z' })).toMatchObject({ status: 422, body: { field: 'expires_at' } });
    expect((await envelopeRow(org, env.id)).status).toBe('sent');
    const res = await api.reactivate(env.id, { expires_at: '2099-06-01T12:00:00Z' });
    expect(res).toMatchObject({ status: 200, body: { status: 'sent', expires_at: '2099-06-01T12:00:00.000Z' } });
    const types = (await api.timeline(env.id)).body.data.map((e: { event_type: string }) => e.event_type);
    expect(types.slice(-3)).toEqual(['envelope.expired', 'envelope.reactivated', 'signer.notified']);
    expect((await mailsTo(org, env.emails[0]!)).map((m) => m.template)).toEqual(['signature_request', 'signature_expired', 'signature_request']);
    expect((await eventsOfType(org, 'signature.envelope.expired')).map((e) => (e.payload as { object: { id: string } }).object.id)).toContain(env.id);
    expect(await verifyAuditChain(org.db, env.id)).toMatchObject({ ok: true });
    // Nothing left for the job.
    expect(await expireDueEnvelopes(org.db)).toBe(0);
  });
});
