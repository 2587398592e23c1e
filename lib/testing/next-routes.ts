import { readdirSync } from 'node:fs';
import path from 'node:path';
import { getRouteRegex } from 'next/dist/shared/lib/router/utils/route-regex';
import { getSortedRoutes } from 'next/dist/shared/lib/router/utils/sorted-routes';

/** Every /v1 route of the app directory as Next.js names it ("/v1/invoices/[id]/reminders"). */
function v1Routes(dir = path.join(process.cwd(), 'app/v1'), prefix = '/v1'): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isFile() && entry.name === 'route.ts') return [prefix];
    return entry.isDirectory() ? v1Routes(path.join(dir, entry.name), `${prefix}/${entry.name}`) : [];
  });
}

/** The route Next.js serves a path with: its routes sorted its own way (static segments before dynamic ones). */
export const servedBy = (pathname: string) => getSortedRoutes(v1Routes()).find((r) => getRouteRegex(r).re.test(pathname));
