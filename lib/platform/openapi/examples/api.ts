import path from 'node:path';
import committed from './api.json';

/**
 * The committed request/response examples of the /v1 operations (api.json), recorded from the API tests' own calls
 * (lib/testing/api-examples.ts, `npm run openapi:record-examples`; docs/api-examples.md). Per operationId: the request
 * body of its success call, and per status the response body — for an error status, one per code.
 */
export interface OperationExamples {
  request?: unknown;
  responses: Record<string, unknown>;
}
export type ApiExamples = Record<string, OperationExamples>;

// From the project's root, not import.meta.dirname: this file is also bundled into the server (/v1/openapi.json),
// where that is undefined.
export const API_EXAMPLES_FILE = path.join(process.cwd(), 'lib/platform/openapi/examples/api.json');
export const apiExamples = (): ApiExamples => committed as ApiExamples;

/**
 * Operations that may lack a success example, each with why (docs/api-examples.md). Keep it short: an operation leaves
 * it as soon as a test calls it through lib/testing/http.ts and the examples are recorded again.
 */
export const WITHOUT_EXAMPLES: Readonly<Record<string, string>> = {
  // A PDF: a binary body has no example to show, and lib/domain/pdf/render.test.ts reads its bytes from the handler itself
  // (call() decodes text). Their errors have examples.
  getInvoicePdf: 'a PDF (application/pdf), read raw by its tests',
  previewInvoice: 'a PDF (application/pdf), read raw by its tests',
  getSignatureEnvelopeDocument: 'a PDF (application/pdf), read raw by its tests',
  getSignatureEnvelopeSigned: 'a PDF (application/pdf), read raw by its tests',
  getSignatureEnvelopeProof: 'a PDF (application/pdf), read raw by its tests',
  // A multipart upload: its tests post FormData to the handler, which call() does not send (JSON or raw text only).
  createSignatureDocument: 'a multipart upload, posted by its tests without call()',
};

/**
 * Examples that do not fit their schema because the document is wrong, not the example: the test expects each still
 * to fail (remove the entry once the document is fixed). Keep it empty but for a known, reported defect.
 */
export const SCHEMA_MISMATCHES: Readonly<Record<string, string>> = {};

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
// A long letters-and-digits run: a key, a secret, a token, a hash, a cursor.
const SECRET_RUN = /[A-Za-z0-9]{20,}/g;
const ANCHOR = '2026-01-15';
const HEX = '0123456789abcdef';

const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/**
 * Stable placeholders for what changes from one run to the next, so that recording again only shows real changes:
 * each distinct uuid becomes 00000000-0000-4000-8000-<n> in order of appearance (the request first, so the ids it
 * names are those of the response), dates move by the days between `today` and 2026-01-15 (their distances stay)
 * with times at 09:30 UTC, and a long run of letters and digits (keys, secrets, tokens, hashes, cursors) becomes
 * 0123456789abcdef… of its length (still base62, base64 and hexadecimal).
 */
export function normaliseExample<T>(values: T, today: string): T {
  const ids = new Map<string, string>();
  const shift = Math.round((Date.parse(`${ANCHOR}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000);
  const text = (s: string): string => {
    const dt = DATE_TIME.exec(s);
    if (dt?.[1]) return `${addDays(dt[1], shift)}T09:30:00.000Z`;
    if (DATE.test(s)) return addDays(s, shift);
    const withIds = s.replace(UUID, (id) => {
      const key = id.toLowerCase();
      if (!ids.has(key)) ids.set(key, `00000000-0000-4000-8000-${String(ids.size + 1).padStart(12, '0')}`);
      return ids.get(key)!;
    });
    return withIds.replace(SECRET_RUN, (run) =>
      /\d/.test(run) && /[A-Za-z]/.test(run) ? Array.from(run, (_, i) => HEX[i % 16]).join('') : run,
    );
  };
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return text(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(values) as T;
}
