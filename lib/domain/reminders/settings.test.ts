import { beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayParis } from '@/lib/platform/dates';
import { line, routes } from '@/lib/domain/documents/testing';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { reminderRows, remindersContext, useTempStorage } from './testing';

let org: TestOrg;
let api: Awaited<ReturnType<typeof remindersContext>>;
beforeAll(async () => {
  org = await createTestOrg();
  api = await remindersContext(org);
});

const get = () => call(routes.getSettings, 'GET', '/v1/invoice/settings', { token: api.token });
const put = (body: unknown, token = api.token) => call(routes.putSettings, 'PUT', '/v1/invoice/settings', { token, body });

describe('reminder ladders in GET/PUT /v1/invoice/settings', () => {
  it('defaults to [-3, 1, 7, 15, 30] and [-7, -2]; an omitted ladder takes its default again (PUT)', async () => {
    expect((await get()).body).toMatchObject({ payment_reminder_offsets: [-3, 1, 7, 15, 30], quote_expiry_reminder_offsets: [-7, -2] });
    const res = await put({ payment_reminder_offsets: [0, 10], quote_expiry_reminder_offsets: [] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ payment_reminder_offsets: [0, 10], quote_expiry_reminder_offsets: [] });
    expect((await get()).body).toMatchObject({ payment_reminder_offsets: [0, 10], quote_expiry_reminder_offsets: [] });
    expect((await put({ facture_prefix: 'F' })).body).toMatchObject({ payment_reminder_offsets: [-3, 1, 7, 15, 30], quote_expiry_reminder_offsets: [-7, -2] });
  });

  it('stores a ladder sorted and without duplicates', async () => {
    const res = await put({ payment_reminder_offsets: [30, -3, 7, 7, 1, -3], quote_expiry_reminder_offsets: [0, -14, -14] });
    expect(res.body).toMatchObject({ payment_reminder_offsets: [-3, 1, 7, 30], quote_expiry_reminder_offsets: [-14, 0] });
  });

  it.each([
    [{ payment_reminder_offsets: [1, 2.5] }, 'payment_reminder_offsets.1'],
    [{ payment_reminder_offsets: ['7'] }, 'payment_reminder_offsets.0'],
    [{ payment_reminder_offsets: [400] }, 'payment_reminder_offsets.0'],
    [{ payment_reminder_offsets: [-91] }, 'payment_reminder_offsets.0'],
    [{ payment_reminder_offsets: 7 }, 'payment_reminder_offsets'],
    [{ payment_reminder_offsets: null }, 'payment_reminder_offsets'],
    [{ payment_reminder_offsets: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] }, 'payment_reminder_offsets'],
    [{ quote_expiry_reminder_offsets: [1] }, 'quote_expiry_reminder_offsets.0'],
    [{ quote_expiry_reminder_offsets: [-1, 'x'] }, 'quote_expiry_reminder_offsets.1'],
  ])('refuses %j with 422 on %s', async (body, field) => {
    const res = await put(body);
    expect([res.status, res.body.code, res.body.field]).toEqual([422, 'validation_error', field]);
  });

  it('eleven values with a duplicate make ten steps: accepted', async () => {
    const res = await put({ payment_reminder_offsets: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10] });
    expect(res.body.payment_reminder_offsets).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('a document sent afterwards is armed with the org’s ladder', async () => {
    const cleanup = await useTempStorage();
    try {
      await put({ payment_reminder_offsets: [2, 9] });
      const client = await api.contact({ email: 'compta@client.example' });
      const inv = await api.issued({ type: 'facture', contact_id: client.id, due_date: addDays(todayParis(), 20), items: [line('A', '1', 100)] });
      expect((await api.send(inv.id)).body.scheduled_reminders).toBe(2);
      expect((await reminderRows(org, inv.id)).map((r) => [r.offset_days, r.tone])).toEqual([
        [2, 'firm'],
        [9, 'final'],
      ]);
    } finally {
      await cleanup();
    }
  });

  it('changing them takes invoice:write (403 with invoice:read, 401 without a key)', async () => {
    expect((await put({ payment_reminder_offsets: [1] }, await org.key(['invoice:read']))).status).toBe(403);
    expect((await put({ payment_reminder_offsets: [1] }, '')).status).toBe(401);
  });
});
