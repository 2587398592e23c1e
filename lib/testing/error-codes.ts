import { appendFileSync } from 'node:fs';
import { apiOperations } from '@/lib/openapi/document';
import { declaredErrors, operationServing } from '@/lib/openapi/errors';

/**
 * The tags whose operations' tests have run under this check with their codes declared. A test that calls one of
 * them and observes an error code its operation does not declare for that status fails, naming the pair to add to the
 * operation's `errors` — so the document's per-status `code` enums (lib/openapi/errors.ts) cannot drift from what
 * the handlers answer. A module joins by adding its tag once its tests pass with it (docs/api-versioning.md).
 */
export const CHECKED_TAGS: ReadonlySet<string> = new Set(['Contacts', 'Events', 'Invoice settings', 'Products', 'Webhooks']);

/** CHECKED_TAGS, and the tags of ERROR_CODES_TRY (comma-separated): to run a module's tests under the check before it joins. */
const checkedTags = () => new Set([...CHECKED_TAGS, ...(process.env.ERROR_CODES_TRY ?? '').split(',').filter(Boolean)]);

/** Throws when `status`/`body.code`, observed on `method` `url`, is not declared by the operation serving it. */
export function checkDeclaredError(method: string, url: URL, status: number, body: unknown) {
  if (status < 400 || !body || typeof body !== 'object' || typeof (body as { code?: unknown }).code !== 'string') return;
  const op = operationServing(apiOperations(), method, url.pathname);
  if (!op || !checkedTags().has(op.tag)) return;
  const code = (body as { code: string }).code;
  if (declaredErrors(op).get(status)?.includes(code)) return;
  // ERROR_CODES_RECORD=<file>: write the pair down instead, to list every missing one of a module in one run.
  if (process.env.ERROR_CODES_RECORD) return appendFileSync(process.env.ERROR_CODES_RECORD, `${op.method} ${op.path} ${status} ${code}\n`);
  throw new Error(
    `${method} ${op.path} answered ${status} ${code}, which the operation does not declare: add [${status}, '${code}'] to its errors ` +
      '(the document lists each status’s codes; lib/openapi/errors.ts).',
  );
}
