import type { z } from 'zod';
import type { Operation } from '@/lib/platform/contract';

/**
 * The verbs a path segment can name (`/v1/invoices/{id}/finalize`, `/v1/contacts/import`): such a segment is an action
 * on what precedes it, not a sub-resource. A module whose action is not here gets `create…` for it (POST) until it
 * is added, or declares its `operationId`.
 */
const VERBS = new Set([
  'accept',
  'activate',
  'approve',
  'cancel',
  'complete',
  'convert',
  'decline',
  'dispute',
  'download',
  'duplicate',
  'enroll',
  'erase',
  'export',
  'finalize',
  'import',
  'merge',
  'pause',
  'poll',
  'preview',
  'redeliver',
  'refresh',
  'refuse',
  'reject',
  'remind',
  'render',
  'restore',
  'resume',
  'retry',
  'revoke',
  'rotate',
  'run',
  'send',
  'sign',
  'submit',
  'sync',
  'test',
  'transmit',
  'validate',
  'verify',
  'void',
]);

const pascal = (words: readonly string[]) => words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
const words = (segment: string) => segment.split(/[-_]/).filter(Boolean);
const singular = (word: string) => (word.endsWith('ies') ? `${word.slice(0, -3)}y` : /[^su]s$/.test(word) ? word.slice(0, -1) : word);
const isParam = (segment: string) => segment.startsWith('{');

/** A 200 that is a `{data, meta}` page (lib/platform/contract/schemas pageOf): the GET lists. */
function isPage(op: Operation): boolean {
  const shape = (op.responses[200]?.schema as z.ZodObject | undefined)?.shape;
  return Boolean(shape && 'data' in shape && 'meta' in shape);
}

/**
 * An action-style operationId from the method and path, so that every module's operations read well in an SDK without
 * naming them: `GET /v1/contacts` listContacts, `POST /v1/contacts` createContact, `GET /v1/invoices/{id}` getInvoice,
 * `POST /v1/invoices/{id}/finalize` finalizeInvoice, `POST /v1/invoices/{id}/payments` createInvoicePayment,
 * `POST /v1/webhooks/endpoints/{id}/rotate-secret` rotateWebhookEndpointSecret, `PUT /v1/invoice/settings`
 * replaceInvoiceSettings. A noun is singular when an id follows it or when one is created; the last one otherwise keeps
 * its form (listInvoicePayments, getInvoiceStats). `operation.operationId` overrides it.
 */
export function operationId(op: Operation): string {
  if (op.operationId) return op.operationId;
  const segments = op.path.split('/').filter(Boolean).slice(1); // past /v1
  const lastNoun = segments.findLastIndex((s) => !isParam(s));
  const last = words(segments[lastNoun] ?? '');
  // The action's verb: the last verb among the last segment's words (merge-preview: preview), when it is not followed by an id.
  const verbAt = lastNoun === segments.length - 1 ? last.findLastIndex((w) => VERBS.has(w)) : -1;
  const nouns = verbAt >= 0 ? segments.slice(0, lastNoun) : segments;
  const objectWords: string[] = [];
  nouns.forEach((segment, i) => {
    if (isParam(segment)) return;
    const followedByParam = isParam(nouns[i + 1] ?? '');
    const isLast = nouns.slice(i + 1).every(isParam);
    const keep = isLast && !followedByParam && !(op.method === 'post' && verbAt < 0);
    const ws = words(segment);
    objectWords.push(...(keep ? ws : [...ws.slice(0, -1), singular(ws.at(-1)!)]));
  });
  if (verbAt >= 0) return last[verbAt] + pascal(objectWords) + pascal(last.filter((_, i) => i !== verbAt));
  const verb = { get: isPage(op) ? 'list' : 'get', post: 'create', put: 'replace', patch: 'update', delete: 'delete' }[op.method];
  return verb + pascal(objectWords);
}
