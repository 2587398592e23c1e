import type { oas31 } from 'zod-openapi';
import type { Operation } from '@/lib/platform/contract';

type HeaderName = 'RequestId' | 'RateLimitLimit' | 'RateLimitRemaining' | 'RateLimitReset' | 'RetryAfter' | 'IdempotentReplayed' | 'ETag' | 'Deprecation' | 'Sunset';

/**
 * The headers lib/platform/http puts on responses (handler.ts, rate-limit.ts, idempotency.ts) and the PDF routes' cache
 * validators, as OpenAPI header components; `responseHeaders` says which response carries which.
 */
export const HEADER_COMPONENTS: Record<HeaderName, oas31.HeaderObject> = {
  RequestId: {
    description: 'Id of this request, on every response: quote it when reporting a problem (the server logs it; a 500 names it).',
    required: true,
    schema: { type: 'string', format: 'uuid' },
  },
  RateLimitLimit: {
    description: 'Calls the API key may make per window (RATE_LIMIT_POINTS, 1000 per 60 s by default). On every response to a call made with an API key.',
    schema: { type: 'integer', minimum: 1 },
  },
  RateLimitRemaining: {
    description: 'Calls the API key has left in the current window.',
    schema: { type: 'integer', minimum: 0 },
  },
  RateLimitReset: {
    description: 'Seconds until the current window ends and the quota is whole again.',
    schema: { type: 'integer', minimum: 0 },
  },
  RetryAfter: {
    description: 'Seconds to wait before calling again.',
    required: true,
    schema: { type: 'integer', minimum: 1 },
  },
  IdempotentReplayed: {
    description: 'Present when this is the stored response of an earlier request with the same Idempotency-Key: nothing was done again.',
    schema: { type: 'string', enum: ['true'] },
  },
  ETag: {
    description: 'Strong validator: the SHA-256 of the file, quoted. Send it back as If-None-Match to get a 304 instead of the file.',
    required: true,
    schema: { type: 'string' },
  },
  Deprecation: {
    description:
      'On every response of a deprecated operation (RFC 9745): when its deprecation was announced, as `@` and Unix seconds. ' +
      'A `Link` header with rel="deprecation" points to the notice; docs/api-versioning.md says what follows.',
    required: true,
    schema: { type: 'string', pattern: '^@\\d+$' },
  },
  Sunset: {
    description: 'When a deprecated operation stops being served (RFC 8594), an HTTP-date; at least 6 months after its deprecation.',
    schema: { type: 'string' },
  },
};

const ref = (name: HeaderName) => ({ $ref: `#/components/headers/${name}` });

/** The headers a response of `op` with `status` carries. */
export function responseHeaders(op: Operation, status: number) {
  // 401 is answered before the key is known; a 400 credentials_in_query too: no quota headers then.
  const limited = status !== 401 && status !== 400;
  return {
    'X-Request-Id': ref('RequestId'),
    ...(limited ? { 'RateLimit-Limit': ref('RateLimitLimit'), 'RateLimit-Remaining': ref('RateLimitRemaining'), 'RateLimit-Reset': ref('RateLimitReset') } : {}),
    ...(status === 429 ? { 'Retry-After': ref('RetryAfter') } : {}),
    ...(op.method === 'post' && status < 300 ? { 'Idempotent-Replayed': ref('IdempotentReplayed') } : {}),
    ...(hasConditionalGet(op) && (status === 200 || status === 304) ? { ETag: ref('ETag') } : {}),
    // lib/platform/http/deprecation.ts: on every answer of the operation, errors included.
    ...(op.deprecated ? { Deprecation: ref('Deprecation'), ...(op.deprecated.sunset ? { Sunset: ref('Sunset') } : {}) } : {}),
  };
}

/** An operation that declares a 304 answers If-None-Match with its ETag (the PDFs). */
export const hasConditionalGet = (op: Operation) => op.method === 'get' && 304 in op.responses;

/** The request headers of `op` beyond Authorization: Idempotency-Key on POST, If-None-Match where a 304 is declared. */
export function requestHeaders(op: Operation) {
  return [
    ...(op.method === 'post'
      ? [
          {
            name: 'Idempotency-Key',
            in: 'header',
            required: false,
            schema: { type: 'string', minLength: 1, maxLength: 255 },
            description:
              'Any unique string (a UUID): a retry with the same key and body within 24 h gets the first response again (Idempotent-Replayed: true) ' +
              'instead of doing it twice; the same key with another body is 422 idempotency_key_reused, and while the first is still running 409 idempotency_in_progress.',
          },
        ]
      : []),
    ...(hasConditionalGet(op)
      ? [{ name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string' }, description: 'The ETag of the copy you have: 304 when it is still the file.' }]
      : []),
  ];
}
