import type { z } from 'zod';
import type { Scope } from '@/lib/auth/scopes';

/**
 * One endpoint's contract: the route wrapper enforces it (scope, schemas) and the OpenAPI document is
 * generated from the same object, so the two cannot drift.
 */
export interface Operation<P = z.ZodType | undefined, Q = z.ZodType | undefined, B = z.ZodType | undefined> {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  /** Read by SDKs as the method's name; generated from the method and path when omitted (lib/openapi/names.ts). */
  operationId?: string;
  summary: string;
  description?: string;
  tag: string;
  scope: Scope;
  params?: P;
  query?: Q;
  body?: B;
  /** Largest body accepted, in bytes; 1 MiB when omitted (lib/http/body.ts). */
  maxBodyBytes?: number;
  /** `multipart/form-data` for a file upload (the body schema describes its fields); JSON when omitted. */
  bodyMediaType?: 'application/json' | 'multipart/form-data';
  /** Success responses: status → schema (omit for an empty body) and description. */
  responses: Record<number, { description: string; schema?: z.ZodType; contentType?: string }>;
  /** Error codes this operation can answer beyond the ones every call can (401/403/429/500). */
  errors?: Array<[status: number, code: string]>;
}

export function operation<P extends z.ZodType | undefined = undefined, Q extends z.ZodType | undefined = undefined, B extends z.ZodType | undefined = undefined>(
  op: Operation<P, Q, B>,
): Operation<P, Q, B> {
  return op;
}
