import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { encode } from 'next-auth/jwt';
import { beforeAll, describe, expect, it } from 'vitest';
import { exportSettings } from '@/db/schema';
import { authSecret } from '@/lib/platform/config';
import { ApiError } from '@/lib/platform/errors';
import { actionUnder, initialFormState, isReadAction, READ_ONLY_REFUSAL, type StaffSession } from '@/lib/platform/next';
import { addMembership, createUser } from '@/lib/platform/orgs';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';

/*
 * The read-only « comptable » changes nothing: every server action and every write of /v1 made with its session is
 * refused, by the two wrappers (lib/platform/next/action.ts, handler.ts), not page by page. This walks them all: a new
 * action or route is covered the day it is added.
 */

const root = path.resolve(import.meta.dirname, '..');
const files = (dir: string, match: (name: string, text: string) => boolean) =>
  readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !e.name.includes('.test.'))
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
    .filter((f) => match(path.basename(f), readFileSync(path.join(root, f), 'utf8')));

const actionFiles = ['app', 'components', 'lib'].flatMap((d) => files(d, (_, text) => /^\s*['"]use server['"]/.test(text)));
// The catch-all is the 404 of unknown paths (publicRoute), no endpoint.
const routeFiles = files('app/v1', (name) => name === 'route.ts').filter((f) => !f.includes('[[...'));
/** What the accountant may run: actions that only read (declared `read: true`). */
const READS = ['pdfRenderStateAction', 'verifyChainAction'];

let org: TestOrg;
let accountantId: string;
let adminId: string;
let session: StaffSession = null;

beforeAll(async () => {
  org = await createTestOrg();
  accountantId = (await createUser(org.db, { email: `comptable-${org.org.id}@example.fr`, password: 'long enough password' })).id;
  adminId = (await createUser(org.db, { email: `admin-${org.org.id}@example.fr`, password: 'long enough password' })).id;
  await addMembership(org.db, org.org.id, accountantId, 'accountant');
  await addMembership(org.db, org.org.id, adminId, 'admin');
});

/** The outcome of an action: what it answered, or the ApiError it threw (a button's refusal). */
async function outcome(run: () => Promise<unknown>) {
  try {
    return await run();
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
}

describe('the read-only role and the server actions', () => {
  it('finds the actions', () => {
    expect(actionFiles).toContain('app/(backoffice)/documents/actions.ts');
    expect(actionFiles.length).toBeGreaterThan(20);
  });

  it('refuses the accountant every action that is not a read, before it runs', async () => {
    session = { userId: accountantId, orgId: org.org.id };
    const reads: string[] = [];
    let refused = 0;
    for (const file of actionFiles) {
      const module = (await import(`@/${file}`)) as Record<string, unknown>;
      for (const [name, action] of Object.entries(module)) {
        if (typeof action !== 'function') continue;
        const asAccountant = actionUnder(action, async () => session);
        expect(asAccountant, `${file}: ${name} is built by the wrapper`).not.toBeNull();
        if (isReadAction(action)) {
          reads.push(name);
          continue;
        }
        // Whatever its shape: a staff action's arguments, a form's (state, data), a button's data.
        const out = await outcome(() => asAccountant!(initialFormState, new FormData()));
        if (out instanceof ApiError) expect([out.status, out.code], `${file}: ${name}`).toEqual([403, 'forbidden']);
        else expect((out as { error?: string }).error, `${file}: ${name}`).toBe(READ_ONLY_REFUSAL);
        refused++;
      }
    }
    expect(reads.sort()).toEqual(READS);
    expect(refused).toBeGreaterThan(60);
  });

  it('writes nothing for the accountant, and the same action works for an admin', async () => {
    const { saveExportSettingsAction } = await import('@/app/(backoffice)/exports/actions');
    const form = new FormData();
    for (const [k, v] of Object.entries((await import('@/lib/domain/exports')).DEFAULT_EXPORT_SETTINGS)) form.set(k, v);
    form.set('client_account', '411999');
    session = { userId: accountantId, orgId: org.org.id };
    const run = actionUnder(saveExportSettingsAction, async () => session)!;
    expect(await outcome(() => run(initialFormState, form))).toMatchObject({ error: READ_ONLY_REFUSAL });
    expect(await org.db.select().from(exportSettings).where(eq(exportSettings.org_id, org.org.id))).toEqual([]);
    session = { userId: adminId, orgId: org.org.id };
    // The admin's save runs; the revalidatePath after it needs a Next.js request, which a test has not.
    await expect(run(initialFormState, form)).rejects.toThrow(/revalidatePath/);
    const [row] = await org.db.select().from(exportSettings).where(eq(exportSettings.org_id, org.org.id));
    expect(row?.client_account).toBe('411999');
  });
});

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
const cookieFor = async (userId: string) => `next-auth.session-token=${await encode({ token: { sub: userId, orgId: org.org.id }, secret: authSecret() })}`;

describe('the read-only role and /v1', () => {
  it('answers 403 {code, message} to every write made with the accountant’s session', async () => {
    const cookie = await cookieFor(accountantId);
    let refused = 0;
    for (const file of routeFiles) {
      const module = (await import(`@/${file}`)) as Record<string, Handler>;
      // /v1/invoices/[id]/payments/[payment_id] → a path with ids in it.
      const url = `http://localhost:3000/${path.dirname(file).replace(/^app\//, '').replace(/\[[^\]]+\]/g, '0190a0b4-0000-7000-8000-000000000001')}`;
      const params = Object.fromEntries([...file.matchAll(/\[([^\]]+)\]/g)].map((m) => [m[1]!, '0190a0b4-0000-7000-8000-000000000001']));
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
        const handler = module[method];
        if (!handler) continue;
        const res = await handler(
          new Request(url, { method, headers: { cookie, origin: 'http://localhost:3000', 'content-type': 'application/json' }, body: '{}' }),
          { params: Promise.resolve(params) },
        );
        if (res.status === 405) continue; // a method the path does not serve
        expect([res.status, await res.json()], `${method} ${file}`).toEqual([403, { code: 'forbidden', message: expect.stringMatching(/read-only/), field: null }]);
        refused++;
      }
    }
    expect(refused).toBeGreaterThan(50);
  });

  it('lets the accountant read, and an admin write', async () => {
    const { GET: listInvoices, POST: createContact } = { ...(await import('@/app/v1/invoices/route')), ...(await import('@/app/v1/contacts/route')) };
    const headers = async (userId: string) => ({ cookie: await cookieFor(userId), origin: 'http://localhost:3000', 'content-type': 'application/json' });
    const read = await listInvoices(new Request('http://localhost:3000/v1/invoices', { headers: await headers(accountantId) }), { params: Promise.resolve({}) });
    expect(read.status).toBe(200);
    const body = JSON.stringify({ company: 'Lecture Seule SARL' });
    const refused = await createContact(new Request('http://localhost:3000/v1/contacts', { method: 'POST', headers: await headers(accountantId), body }), { params: Promise.resolve({}) });
    expect(refused.status).toBe(403);
    const done = await createContact(new Request('http://localhost:3000/v1/contacts', { method: 'POST', headers: await headers(adminId), body }), { params: Promise.resolve({}) });
    expect(done.status).toBe(201);
  });
});
