import type { Operation } from '@/lib/platform/contract';

/**
 * What every call can answer: a secret in the query string, no or a bad key, a missing scope (no_active_org: a staff
 * session without an org), the quota (or too many bad keys from the address), a failure.
 */
const STANDARD_ERRORS: Array<[number, string]> = [
  [400, 'credentials_in_query'],
  [401, 'unauthorized'],
  [403, 'forbidden'],
  [403, 'no_active_org'],
  [429, 'rate_limited'],
  [500, 'internal_error'],
];

/**
 * The error codes `op` can answer, per status: the ones every call can, the ones the route wrapper adds from the
 * operation's shape (lib/platform/next/handler.ts: a path id, a query or body, the body's reading, a write, Idempotency-Key on
 * POST), and the operation's own `errors`. The document declares them as an enum on `code` per status; the test helper
 * (lib/testing/http.ts) fails a test that observes a code its operation does not declare (docs/api-versioning.md).
 */
export function declaredErrors(op: Operation): Map<number, string[]> {
  const errors: Array<[number, string]> = [...STANDARD_ERRORS, ...(op.errors ?? [])];
  if (op.params) errors.push([404, 'not_found']);
  if (op.query || op.body) errors.push([422, 'validation_error']);
  if (op.body) errors.push([400, op.bodyMediaType === 'multipart/form-data' ? 'invalid_multipart' : 'invalid_json'], [413, 'payload_too_large']);
  // Writes: a body is JSON or nothing; the back-office's session cookie is honoured from its own origin only.
  if (op.method !== 'get') errors.push([415, 'unsupported_media_type'], [403, 'cross_origin_request']);
  // Idempotency-Key on POST: a replay while the first runs, or the key reused for another request.
  if (op.method === 'post') errors.push([409, 'idempotency_in_progress'], [422, 'idempotency_key_reused']);
  const byStatus = new Map<number, string[]>();
  for (const [status, code] of errors) {
    const codes = byStatus.get(status) ?? [];
    if (!codes.includes(code)) codes.push(code);
    byStatus.set(status, codes);
  }
  return byStatus;
}

/** The operation that serves `method` on a concrete path (`/v1/invoices/3f…/finalize`): literal segments win over ids. */
export function operationServing(operations: readonly Operation[], method: string, pathname: string): Operation | undefined {
  const segments = pathname.split('/').filter(Boolean);
  let best: { op: Operation; literal: number } | undefined;
  for (const op of operations) {
    if (op.method !== method.toLowerCase()) continue;
    const template = op.path.split('/').filter(Boolean);
    if (template.length !== segments.length) continue;
    let literal = 0;
    const matches = template.every((t, i) => (t.startsWith('{') ? true : t === segments[i] && ++literal > 0));
    if (matches && (!best || literal > best.literal)) best = { op, literal };
  }
  return best?.op;
}
