import { createHash } from 'node:crypto';
import { appBaseUrl } from '@/lib/platform/config';
import { ApiError } from '@/lib/platform/errors';
import { refuseControlCharacters } from './control-characters';

/** What a request body may weigh unless its operation says otherwise (Operation.maxBodyBytes). */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
export const isUnsafeMethod = (method: string) => UNSAFE_METHODS.has(method.toUpperCase());

const tooLarge = (limit: number) =>
  new ApiError(413, 'payload_too_large', `The request body is larger than this endpoint accepts (${Math.floor(limit / 1024)} KiB at most).`);

/**
 * The body as text, refused with a 413 as soon as it passes `limit` bytes: before reading anything when its
 * Content-Length says so, otherwise while it streams in (a chunked body has no length). Nothing larger than the
 * limit is ever held in memory.
 */
export async function readBody(req: Request, limit = DEFAULT_BODY_LIMIT): Promise<string> {
  return new TextDecoder().decode(await readBodyBytes(req, limit));
}

/** The body as bytes, with the same 413 rule as `readBody`. */
export async function readBodyBytes(req: Request, limit = DEFAULT_BODY_LIMIT): Promise<Buffer> {
  const declared = Number(req.headers.get('content-length') ?? Number.NaN);
  if (declared > limit) throw tooLarge(limit);
  if (!req.body) return Buffer.alloc(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** `application/json`, `application/merge-patch+json`…: the media types a JSON endpoint reads. */
const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/;

/**
 * A body on a JSON endpoint must say it is JSON. Besides being the contract, it keeps a cross-site HTML form or a
 * `text/plain` fetch (neither needs a CORS preflight) from ever reaching a handler with a body. An empty body needs
 * no type (POST …/finalize).
 */
export function requireJsonBody(req: Request): void {
  const type = req.headers.get('content-type');
  const length = req.headers.get('content-length');
  const hasBody = (length !== null && length !== '0') || req.headers.has('transfer-encoding');
  if (type === null && !hasBody) return;
  const media = (type ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (!JSON_MEDIA_TYPE.test(media)) {
    throw new ApiError(415, 'unsupported_media_type', `Send the body as JSON (Content-Type: application/json)${type ? `, not ${media || 'an empty type'}` : ''}.`);
  }
}

/**
 * A call authenticated by the back-office's cookie must come from the back-office: a browser names the page's
 * origin in `Origin` and, in modern browsers, `Sec-Fetch-Site`. Another site's page (CSRF) is refused; a client
 * that sends neither is not a browser, and a cookie it holds was not borrowed from one.
 */
export function requireSameOrigin(req: Request): void {
  const site = req.headers.get('sec-fetch-site');
  if (site !== null && site !== 'same-origin' && site !== 'none') throw crossOrigin();
  const origin = req.headers.get('origin');
  if (origin === null) return;
  const allowed = new Set([new URL(req.url).origin, new URL(appBaseUrl()).origin]);
  if (!allowed.has(origin)) throw crossOrigin();
}

const crossOrigin = () =>
  new ApiError(403, 'cross_origin_request', 'A request carrying the back-office session must come from the back-office itself; integrations use an API key.');

/** A file upload endpoint (Operation.bodyMediaType `multipart/form-data`) reads nothing else. */
export function requireMultipartBody(req: Request): void {
  const media = (req.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (media !== 'multipart/form-data') {
    throw new ApiError(415, 'unsupported_media_type', `Send the body as multipart/form-data${media ? `, not ${media}` : ''}.`);
  }
}

/**
 * A multipart body, bounded like any body, as `{name: string | File}` (the first value of each name), and a digest
 * of its fields and files' contents (not of the bytes: the boundary changes at every retry) for Idempotency-Key.
 */
export async function readMultipart(req: Request, limit = DEFAULT_BODY_LIMIT): Promise<{ fields: Record<string, string | File>; digest: string }> {
  const bytes = await readBodyBytes(req, limit);
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(bytes), { headers: { 'content-type': req.headers.get('content-type') ?? '' } }).formData();
  } catch {
    throw new ApiError(400, 'invalid_multipart', 'The request body is not valid multipart/form-data.');
  }
  const fields: Record<string, string | File> = {};
  const digest = createHash('sha256');
  for (const [name, value] of form.entries()) {
    if (name in fields) continue;
    // A form's texts, as every query and server action's: a multipart body has no rows to report one by one.
    if (typeof value === 'string') refuseControlCharacters(value, [name]);
    fields[name] = value;
    digest.update(`${name}\n`);
    digest.update(typeof value === 'string' ? value : Buffer.from(await value.arrayBuffer()));
    digest.update('\n');
  }
  return { fields, digest: `multipart:${digest.digest('hex')}` };
}
