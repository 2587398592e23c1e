import type { z } from 'zod';
import type { Scope } from '@/lib/platform/auth';

/**
 * One endpoint's contract: the route wrapper enforces it (scope, schemas) and the OpenAPI document is
 * generated from the same object, so the two cannot drift.
 */
export interface Operation<P = z.ZodType | undefined, Q = z.ZodType | undefined, B = z.ZodType | undefined> {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  /** Read by SDKs as the method's name; generated from the method and path when omitted (lib/platform/openapi/names.ts). */
  operationId?: string;
  summary: string;
  description?: string;
  tag: string;
  scope: Scope;
  params?: P;
  query?: Q;
  body?: B;
  /** Largest body accepted, in bytes; 1 MiB when omitted (lib/platform/http/body.ts). */
  maxBodyBytes?: number;
  /** `multipart/form-data` for a file upload (the body schema describes its fields); JSON when omitted. */
  bodyMediaType?: 'application/json' | 'multipart/form-data';
  /** Success responses: status → schema (omit for an empty body) and description. */
  responses: Record<number, { description: string; schema?: z.ZodType; contentType?: string }>;
  /**
   * Set when the operation is deprecated (docs/api-versioning.md): the document marks it `deprecated`, and each of its
   * responses carries `Deprecation` (RFC 9745), `Sunset` (RFC 8594) when an end is set, and `Link` to what replaces it.
   */
  deprecated?: Deprecation;
  /** Error codes this operation can answer beyond the ones every call can (401/403/429/500). */
  errors?: Array<[status: number, code: string]>;
  /**
   * Fields some of those errors' bodies carry beside `{code, message, field}`, per code (enrollment_refused: the
   * enrollment as kept). The document adds them, optional and described, to the error schema of the code's status.
   */
  errorFields?: Record<string, z.ZodRawShape>;
}

export interface Deprecation {
  /** When it was announced, an RFC 3339 instant with its offset (`2027-01-04T00:00:00+01:00`). */
  since: string;
  /** When it stops being served, at least 6 months after `since` (docs/api-versioning.md). */
  sunset?: string;
  /** What to use instead, in words for the reference (`POST /v1/invoices/{id}/send`). */
  replacement?: string;
  /** A page about it (the changelog's entry): sent as `Link: <…>; rel="deprecation"`. */
  link?: string;
}

export function operation<P extends z.ZodType | undefined = undefined, Q extends z.ZodType | undefined = undefined, B extends z.ZodType | undefined = undefined>(
  op: Operation<P, Q, B>,
): Operation<P, Q, B> {
  return op;
}
