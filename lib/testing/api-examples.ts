import { appendFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { threadId } from 'node:worker_threads';
import { expect } from 'vitest';
import { apiOperations, declaredErrors, normaliseExample, operationId, operationServing } from '@/lib/platform/openapi';

/**
 * The recorder of the API examples (docs/api-examples.md): with RECORD_API_EXAMPLES=1, `call()` hands each /v1 call
 * here, and the first one of a test file per (operationId, status, code) is appended, normalised, to a JSON-lines
 * file of RECORD_API_EXAMPLES_DIR; scripts/record-api-examples.ts then keeps, per key, the one of the first test
 * file in path order and writes lib/platform/openapi/examples/api.json. Off (the default, and in CI) it does nothing.
 */
export const RECORD_DIR = () => process.env.RECORD_API_EXAMPLES_DIR ?? path.join(tmpdir(), 'paraphe-api-examples');

export interface RecordedCall {
  key: string;
  operationId: string;
  status: number;
  code?: string;
  request?: unknown;
  response: unknown;
  file: string;
  seq: number;
  empty: boolean;
}

const seen = new Set<string>();
let seq = 0;

const parisToday = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date());

export function recordApiExample(method: string, url: URL, requestBody: unknown, status: number, contentType: string | null, body: unknown) {
  if (process.env.RECORD_API_EXAMPLES !== '1') return;
  const op = operationServing(apiOperations(), method, url.pathname);
  if (!op) return;
  const json = contentType?.includes('json') ?? false;
  const raw = status >= 400 && json && body && typeof body === 'object' ? (body as { code?: unknown }).code : undefined;
  const code = typeof raw === 'string' ? raw : undefined;
  if (status >= 400 && !code) return;
  // Only what the document declares (a route another engineer is still writing may answer otherwise).
  if (code ? !declaredErrors(op).get(status)?.includes(code) : !op.responses[status]) return;
  const id = operationId(op);
  const file = path.relative(process.cwd(), expect.getState().testPath ?? 'unknown');
  const key = `${id} ${status}${code ? ` ${code}` : ''}`;
  // An empty page is kept only until a full one comes (the script prefers the full one).
  const empty = Array.isArray((body as { data?: unknown } | null)?.data) && (body as { data: unknown[] }).data.length === 0;
  if (seen.has(`${file} ${key} ${empty}`)) return;
  seen.add(`${file} ${key} ${empty}`);
  // Normalised together, so that the ids the request names are the response's.
  const [request, response] = normaliseExample([requestBody ?? null, json ? body : null], parisToday());
  const recorded: RecordedCall = { key, operationId: id, status, ...(code ? { code } : {}), request, response, file, seq: seq++, empty };
  mkdirSync(RECORD_DIR(), { recursive: true });
  appendFileSync(path.join(RECORD_DIR(), `${process.pid}-${threadId}.jsonl`), `${JSON.stringify(recorded)}\n`);
}
