import { readdirSync } from 'node:fs';
import path from 'node:path';
import { getRouteRegex } from 'next/dist/shared/lib/router/utils/route-regex';
import { getSortedRoutes } from 'next/dist/shared/lib/router/utils/sorted-routes';
import { expect, it } from 'vitest';
import { createTestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';

/** Every /v1 route of the app directory as Next.js names it ("/v1/invoices/[id]/reminders"). */
function v1Routes(dir = path.join(process.cwd(), 'app/v1'), prefix = '/v1'): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isFile() && entry.name === 'route.ts') return [prefix];
    return entry.isDirectory() ? v1Routes(path.join(dir, entry.name), `${prefix}/${entry.name}`) : [];
  });
}

/** The route Next.js serves a path with: its routes sorted its own way (static segments before dynamic ones). */
const servedBy = (pathname: string) => getSortedRoutes(v1Routes()).find((r) => getRouteRegex(r).re.test(pathname));

it('GET /v1/invoices/reminders/tracking is served by its own route, not captured by /v1/invoices/[id]/…', async () => {
  expect(servedBy('/v1/invoices/reminders/tracking')).toBe('/v1/invoices/reminders/tracking');
  // The dynamic routes still serve real ids: /v1/invoices/{id}/reminders.
  expect(servedBy('/v1/invoices/0190f3a0-0000-7000-8000-000000000001/reminders')).toBe('/v1/invoices/[id]/reminders');

  const route = await import(`@/app${servedBy('/v1/invoices/reminders/tracking')}/route`);
  const org = await createTestOrg();
  const res = await call(route.GET, 'GET', '/v1/invoices/reminders/tracking', { token: await org.key(['invoice:read']) });
  expect([res.status, res.body]).toEqual([200, { items: [] }]);
});
