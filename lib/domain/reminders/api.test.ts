import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayParis } from '@/lib/platform/dates';
import { line } from '@/lib/domain/documents/testing';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { type CallResult, call } from '@/lib/testing/http';
import { dispatchDueReminders } from './dispatch';
import { reminderRoutes, remindersContext, useTempStorage } from './testing';

let org: TestOrg;
let other: TestOrg;
let api: Awaited<ReturnType<typeof remindersContext>>;
let otherApi: Awaited<ReturnType<typeof remindersContext>>;
let client: { id: string };
let cleanup: () => Promise<void>;
beforeAll(async () => {
  cleanup = await useTempStorage();
  org = await createTestOrg();
  other = await createTestOrg();
  api = await remindersContext(org);
  otherApi = await remindersContext(other);
  client = await api.contact({ email: 'compta@client.example' });
});
afterAll(() => cleanup());

const invoice = (body: Record<string, unknown> = {}) =>
  api.issued({ type: 'facture', contact_id: client.id, due_date: addDays(todayParis(), 30), items: [line('Audit', '1', 10000)], ...body });
const expectError = (res: CallResult, status: number, code: string, field?: string | null) => {
  expect([res.status, res.body.code, ...(field === undefined ? [] : [res.body.field])], JSON.stringify(res.body)).toEqual([status, code, ...(field === undefined ? [] : [field])]);
};

describe('GET/POST /v1/invoices/{id}/reminders, DELETE …/{reminder_id}', () => {
  it('lists the ladder and a manual reminder newest first, cancels a pending one', async () => {
    const inv = await invoice();
    expect((await api.send(inv.id)).body.scheduled_reminders).toBe(5);
    const at = new Date(`${addDays(inv.due_date, 3)}T14:00:00+01:00`).toISOString();
    const added = await api.addReminder(inv.id, { scheduled_at: at, message: '  Relance téléphonique faite ce matin.  ' });
    expect(added.status).toBe(201);
    expect(added.body).toEqual({
      id: expect.any(String),
      document_id: inv.id,
      kind: 'manual',
      step: null,
      offset_days: null,
      scheduled_at: at,
      status: 'pending',
      tone: null,
      message: 'Relance téléphonique faite ce matin.',
      reason: null,
      sent_at: null,
      email_id: null,
      created_at: expect.stringMatching(/Z$/),
      updated_at: expect.stringMatching(/Z$/),
    });

    // Newest first, like every list: the manual reminder added last, then the ladder from its last step.
    const list = await api.reminders(inv.id);
    expect(list.status).toBe(200);
    expect(list.body.meta).toEqual({ next_cursor: null });
    expect(list.body.data.map((r: { kind: string; offset_days: number | null }) => [r.kind, r.offset_days])).toEqual([
      ['manual', null],
      ['payment', 30],
      ['payment', 15],
      ['payment', 7],
      ['payment', 1],
      ['payment', -3],
    ]);

    const deleted = await api.deleteReminder(inv.id, added.body.id);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ id: added.body.id, status: 'cancelled', reason: 'deleted' });
    expectError(await api.deleteReminder(inv.id, added.body.id), 409, 'reminder_not_pending');
    expect((await api.reminders(inv.id)).body.data).toHaveLength(6);
  });

  it('pages like every list: limit 1–100 (default 50), meta.next_cursor, a forged cursor is 422 invalid_cursor', async () => {
    const inv = await invoice();
    await api.send(inv.id);
    const manual = (await api.addReminder(inv.id)).body.id;
    const page = (query: Record<string, string | number>) =>
      call(reminderRoutes.list, 'GET', `/v1/invoices/${inv.id}/reminders`, { token: api.token, params: { id: inv.id }, query });
    const first = await page({ limit: 4 });
    expect(first.status).toBe(200);
    expect(first.body.data.map((r: { id: string; offset_days: number | null }) => r.offset_days)).toEqual([null, 30, 15, 7]);
    expect(first.body.data[0].id).toBe(manual);
    const second = await page({ limit: 4, cursor: first.body.meta.next_cursor });
    expect(second.body.data.map((r: { offset_days: number | null }) => r.offset_days)).toEqual([1, -3]);
    expect(second.body.meta).toEqual({ next_cursor: null });
    expectError(await page({ cursor: 'bm90LWEtY3Vyc29y' }), 422, 'invalid_cursor', 'cursor');
    for (const limit of [0, 101, 'ten']) expectError(await page({ limit }), 422, 'validation_error', 'limit');
  });

  it('a reminder for now goes with the next dispatch; once sent it can no longer be deleted', async () => {
    const inv = await invoice();
    const now = await api.addReminder(inv.id);
    expect(now.status).toBe(201);
    expect(Date.now() - Date.parse(now.body.scheduled_at)).toBeLessThan(60_000);
    await dispatchDueReminders(org.db, { orgId: org.org.id });
    const [sent] = (await api.reminders(inv.id)).body.data;
    expect(sent).toMatchObject({ id: now.body.id, status: 'sent', tone: 'gentle', email_id: expect.any(String) });
    expectError(await api.deleteReminder(inv.id, now.body.id), 409, 'reminder_not_pending');
  });

  it('refuses a draft, a credit note, a settled document, a client who opted out, and an eleventh pending one', async () => {
    const draft = await api.draft({ type: 'facture', contact_id: client.id, items: [line('A', '1', 100)] });
    expectError(await api.addReminder(draft.id), 409, 'not_finalized');

    const paid = await invoice();
    await api.pay(paid.id, { amount: paid.total_ttc });
    expectError(await api.addReminder(paid.id), 409, 'not_remindable');
    const cancelled = await invoice();
    await api.cancel(cancelled.id);
    expectError(await api.addReminder(cancelled.id), 409, 'not_remindable');
    const credit = (await api.list({ type: 'avoir' })).body.data[0];
    expectError(await api.addReminder(credit.id), 409, 'not_remindable');
    const noDue = await invoice({ due_date: null });
    expectError(await api.addReminder(noDue.id), 409, 'not_remindable');

    const shy = await api.contact({ company: 'Discret SAS', email: 'discret@client.example', reminder_opt_out: true });
    const optedOut = await api.issued({ type: 'facture', contact_id: shy.id, items: [line('A', '1', 100)] });
    expectError(await api.addReminder(optedOut.id), 409, 'reminder_opt_out');

    const busy = await invoice();
    const future = new Date(Date.now() + 86_400_000).toISOString();
    for (let i = 0; i < 10; i++) expect((await api.addReminder(busy.id, { scheduled_at: future })).status).toBe(201);
    expectError(await api.addReminder(busy.id, { scheduled_at: future }), 409, 'too_many_reminders');
  });

  it('a quote gets quote-expiry reminders, without a tone', async () => {
    const quote = await api.issued({ type: 'devis', contact_id: client.id, validity_date: addDays(todayParis(), 20), items: [line('A', '1', 100)] });
    expect((await api.addReminder(quote.id, { message: 'Toujours intéressé ?' })).status).toBe(201);
    expectError(await api.addReminder(quote.id, { tone: 'firm' }), 422, 'validation_error', 'tone');
  });
});

describe('access and validation, every endpoint', () => {
  let inv: { id: string };
  let reminderId: string;
  let otherDoc: { id: string };
  let otherReminderId: string;
  beforeAll(async () => {
    inv = await invoice();
    reminderId = (await api.addReminder(inv.id, { scheduled_at: new Date(Date.now() + 86_400_000).toISOString() })).body.id;
    const otherClient = await otherApi.contact({ email: 'x@other.example' });
    otherDoc = await otherApi.issued({ type: 'facture', contact_id: otherClient.id, due_date: addDays(todayParis(), 30), items: [line('A', '1', 100)] });
    otherReminderId = (await otherApi.addReminder(otherDoc.id)).body.id;
  });

  const endpoints = () => [
    { name: 'send', scope: 'write', run: (t?: string, id = inv.id) => api.send(id, {}, t as string) },
    { name: 'list', scope: 'read', run: (t?: string, id = inv.id) => api.reminders(id, t as string) },
    { name: 'create', scope: 'write', run: (t?: string, id = inv.id) => api.addReminder(id, { scheduled_at: new Date(Date.now() + 86_400_000).toISOString() }, t as string) },
    { name: 'delete', scope: 'write', run: (t?: string, id = inv.id) => api.deleteReminder(id, id === inv.id ? reminderId : otherReminderId, t as string) },
    { name: 'tracking', scope: 'read', run: (t?: string) => api.tracking(t as string) },
  ];

  it('401 without a key, or with a bad one', async () => {
    for (const e of endpoints()) {
      expectError(await e.run(''), 401, 'unauthorized');
      expectError(await e.run('paraphe_pk_live_00000000000000000000000000000000'), 401, 'unauthorized');
    }
  });

  it('403 without the scope: invoice:read for reads, invoice:write for the rest', async () => {
    const contactsOnly = await org.key(['contacts:read', 'contacts:write']);
    const readOnly = await org.key(['invoice:read']);
    for (const e of endpoints()) {
      expectError(await e.run(contactsOnly), 403, 'forbidden');
      if (e.scope === 'write') expectError(await e.run(readOnly), 403, 'forbidden');
      else expect((await e.run(readOnly)).status, e.name).toBe(200);
    }
  });

  it("404 for another org's document or reminder, and for a malformed id", async () => {
    for (const e of endpoints().filter((x) => x.name !== 'tracking')) {
      expectError(await e.run(api.token, otherDoc.id), 404, 'not_found');
      expectError(await e.run(api.token, 'not-a-uuid'), 404, 'not_found');
    }
    // Another org's reminder under one's own document, and one's own reminder under another document.
    expectError(await api.deleteReminder(inv.id, otherReminderId), 404, 'not_found');
    const second = await invoice();
    expectError(await api.deleteReminder(second.id, reminderId), 404, 'not_found');
    // The other org's rows never show in one's tracking.
    expect((await api.tracking()).body.items.map((r: { document_id: string }) => r.document_id)).not.toContain(otherDoc.id);
  });

  it('422 naming the field', async () => {
    const cases: Array<[Promise<CallResult>, string]> = [
      [api.send(inv.id, { email: 'pas une adresse' }), 'email'],
      [api.send(inv.id, { cc: ['compta@client.example', 'nope'] }), 'cc.1'],
      [api.send(inv.id, { subject: 'x'.repeat(301) }), 'subject'],
      [api.send(inv.id, { message: 42 }), 'message'],
      [api.send(inv.id, { bcc: ['a@b.example'] }), 'bcc'],
      [api.addReminder(inv.id, { scheduled_at: 'demain' }), 'scheduled_at'],
      [api.addReminder(inv.id, { scheduled_at: new Date(Date.now() - 3_600_000).toISOString() }), 'scheduled_at'],
      [api.addReminder(inv.id, { scheduled_at: new Date(Date.now() + 400 * 86_400_000).toISOString() }), 'scheduled_at'],
      [api.addReminder(inv.id, { tone: 'angry' }), 'tone'],
      [api.addReminder(inv.id, { when: 'now' }), 'when'],
      [call(reminderRoutes.list, 'GET', `/v1/invoices/${inv.id}/reminders`, { token: api.token, params: { id: inv.id }, query: { status: 'pending' } }), 'status'],
      [
        call(reminderRoutes.delete, 'DELETE', `/v1/invoices/${inv.id}/reminders/${reminderId}`, {
          token: api.token,
          params: { id: inv.id, reminder_id: reminderId },
          query: { force: true },
        }),
        'force',
      ],
      [call(reminderRoutes.tracking, 'GET', '/v1/invoices/reminders/tracking', { token: api.token, query: { limit: 50 } }), 'limit'],
    ];
    for (const [pending, field] of cases) expectError(await pending, 422, 'validation_error', field);
    // A body that is not JSON.
    const raw = await call(reminderRoutes.send, 'POST', `/v1/invoices/${inv.id}/send`, { token: api.token, params: { id: inv.id }, rawBody: '{' });
    expectError(raw, 400, 'invalid_json');
  });
});
