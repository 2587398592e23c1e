import { expect, it } from 'vitest';
import { createTestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { servedBy } from '@/lib/testing/next-routes';

it('GET /v1/invoices/reminders/tracking is served by its own route, not captured by /v1/invoices/[id]/…', async () => {
  expect(servedBy('/v1/invoices/reminders/tracking')).toBe('/v1/invoices/reminders/tracking');
  // The dynamic routes still serve real ids: /v1/invoices/{id}/reminders.
  expect(servedBy('/v1/invoices/0190f3a0-0000-7000-8000-000000000001/reminders')).toBe('/v1/invoices/[id]/reminders');

  const route = await import(`@/app${servedBy('/v1/invoices/reminders/tracking')}/route`);
  const org = await createTestOrg();
  const res = await call(route.GET, 'GET', '/v1/invoices/reminders/tracking', { token: await org.key(['invoice:read']) });
  expect([res.status, res.body]).toEqual([200, { items: [] }]);
});
