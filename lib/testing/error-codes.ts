import { appendFileSync } from 'node:fs';
import { installedModules } from '@/lib/platform/manifest';
import { apiOperations, declaredErrors, operationServing } from '@/lib/platform/openapi';

/**
 * The modules whose tests have run under this check with their operations' codes declared. A test that calls one of
 * them and observes an error code its operation does not declare for that status fails, naming the pair to add to the
 * operation's `errors` — so the document's per-status `code` enums (lib/platform/openapi/errors.ts) cannot drift from what
 * the handlers answer. A module joins by adding its name once its tests pass with it (docs/api-versioning.md).
 */
export const CHECKED_MODULES: ReadonlySet<string> = new Set([
  'contacts',
  'documents',
  'einvoicing',
  'events',
  'invoice-settings',
  'payments',
  'pdf',
  'products',
  'recurring',
  'reminders',
  'sending',
  'signature',
  'signed-quotes',
  'stats',
  'webhooks',
]);

/** CHECKED_MODULES, and the modules of ERROR_CODES_TRY (comma-separated): to run a module's tests under the check before it joins. */
const checked = () => new Set([...CHECKED_MODULES, ...(process.env.ERROR_CODES_TRY ?? '').split(',').filter(Boolean)]);
const moduleOf = (op: object) => installedModules().find((m) => m.operations?.includes(op as never))?.name;

/** Throws when `status`/`body.code`, observed on `method` `url`, is not declared by the operation serving it. */
export function checkDeclaredError(method: string, url: URL, status: number, body: unknown) {
  if (status < 400 || !body || typeof body !== 'object' || typeof (body as { code?: unknown }).code !== 'string') return;
  // A 405 is the router's answer for a method the path does not serve: no operation answered it (and for a literal
  // path such as /v1/contacts/duplicates, the template /v1/contacts/{id} would be taken for the one serving it).
  if (status === 405) return;
  const op = operationServing(apiOperations(), method, url.pathname);
  if (!op || !checked().has(moduleOf(op) ?? '')) return;
  const code = (body as { code: string }).code;
  if (declaredErrors(op).get(status)?.includes(code)) return;
  // ERROR_CODES_RECORD=<file>: write the pair down instead, to list every missing one of a module in one run.
  if (process.env.ERROR_CODES_RECORD) return appendFileSync(process.env.ERROR_CODES_RECORD, `${op.method} ${op.path} ${status} ${code}\n`);
  throw new Error(
    `${method} ${op.path} answered ${status} ${code}, which the operation does not declare: add [${status}, '${code}'] to its errors ` +
      '(the document lists each status’s codes; lib/platform/openapi/errors.ts).',
  );
}
