import { readdirSync } from 'node:fs';
import path from 'node:path';
import { getRouteRegex } from 'next/dist/shared/lib/router/utils/route-regex';
import { getSortedRoutes } from 'next/dist/shared/lib/router/utils/sorted-routes';
import { describe, expect, it } from 'vitest';
import { operations } from '@/lib/composition/modules';
import { call } from '@/lib/testing/http';
import { HTTP_METHODS } from './handler';


/** Every /v1 route file, with its path as the API names it ("/v1/invoices/{id}/reminders"). */
function v1Routes(dir = path.join(process.cwd(), 'app/v1'), segments: string[] = ['app', 'v1']): Array<{ module: string; path: string }> {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isFile() && entry.name === 'route.ts') {
      return [{ module: `@/${segments.join('/')}/route`, path: `/${segments.slice(1).join('/').replace(/\[(\w+)\]/g, '{$1}')}` }];
    }
    return entry.isDirectory() ? v1Routes(path.join(dir, entry.name), [...segments, entry.name]) : [];
  });
}

const ID = '0190f3a0-0000-7000-8000-000000000001';
const routes = v1Routes().filter((r) => !r.module.includes('[...'));

describe.each(routes)('$path', ({ module, path: template }) => {
  it('answers every method: the ones it serves, and a JSON 405 naming them in Allow for the others', async () => {
    const mod = (await import(/* @vite-ignore */ module)) as Record<string, Parameters<typeof call>[0]>;
    const url = template.replace(/\{\w+\}/g, ID);
    const params = Object.fromEntries([...template.matchAll(/\{(\w+)\}/g)].map((m) => [m[1]!, ID]));
    const served: string[] = [];
    for (const method of HTTP_METHODS) {
      expect(mod[method], `${method} ${template} is exported`).toBeTypeOf('function');
      const res = await call(mod[method]!, method, url, { params });
      if (res.status !== 405) {
        served.push(method);
        continue;
      }
      expect(res.body).toEqual({ code: 'method_not_allowed', message: expect.any(String), field: null });
      expect(res.headers.get('x-request-id')).toBeTruthy();
    }
    expect(served.length, `${template} serves something`).toBeGreaterThan(0);
    const allow = [...served, ...(served.includes('GET') ? ['HEAD'] : []), 'OPTIONS'].join(', ');
    for (const method of HTTP_METHODS.filter((m) => !served.includes(m))) {
      expect((await call(mod[method]!, method, url, { params })).headers.get('allow')).toBe(allow);
    }
    // OPTIONS names the same methods (Next.js's automatic one would count the 405 handlers as served).
    expect(mod.OPTIONS, `OPTIONS ${template} is exported`).toBeTypeOf('function');
    const options = await call(mod.OPTIONS!, 'OPTIONS', url, { params });
    expect([options.status, options.headers.get('allow')]).toEqual([204, allow]);
    // What a route serves is what /v1/openapi.json documents (the document itself is not an operation).
    if (template !== '/v1/openapi.json') {
      const documented = operations.filter((op) => op.path === template).map((op) => op.method.toUpperCase());
      expect(documented.sort(), `operations documented for ${template}`).toEqual([...served].sort());
    }
  });
});

it('every documented operation is served by a route file', () => {
  const paths = new Set(routes.map((r) => r.path));
  for (const op of operations) expect(paths.has(op.path), `${op.method} ${op.path}`).toBe(true);
});

it('answers any other /v1 path, /v1 itself included, with the JSON 404 of the catch-all route (not the HTML page)', async () => {
  // The route names as Next.js sorts and matches them ("/v1/invoices/[id]"), over the real files.
  const names = (dir = path.join(process.cwd(), 'app/v1'), prefix = '/v1'): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      if (entry.isFile() && entry.name === 'route.ts') return [prefix];
      return entry.isDirectory() ? names(path.join(dir, entry.name), `${prefix}/${entry.name}`) : [];
    });
  const sorted = getSortedRoutes(names());
  const catchAll = sorted.find((r) => r.includes('...'))!;
  const servedBy = (pathname: string) => sorted.find((r) => getRouteRegex(r).re.test(pathname));
  for (const pathname of ['/v1', '/v1/nothing', '/v1/invoices/0190f3a0-0000-7000-8000-000000000001/nothing/deeper']) {
    expect(servedBy(pathname), pathname).toBe(catchAll);
  }
  const { GET } = await import(/* @vite-ignore */ `@/app${catchAll}/route`);
  const res = await call(GET, 'GET', '/v1');
  expect([res.status, res.body]).toEqual([404, { code: 'not_found', message: expect.any(String), field: null }]);
});
