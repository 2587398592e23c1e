import type { z } from 'zod';
import { frenchFieldMessage } from '@/lib/platform/i18n';

/**
 * The one error type. Domain code throws it; the handler wrapper turns it into `{code, message, field}`
 * with its status. Anything else that escapes becomes a 500 with no detail.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field: string | null = null,
    readonly headers: Record<string, string> = {},
    /** More members of the body, after code, message and field (e.g. einvoice_invalid's `errors`). */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  toBody() {
    return { code: this.code, message: this.message, field: this.field, ...this.details };
  }
}

export const notFound = (what = 'Resource') => new ApiError(404, 'not_found', `${what} not found.`);

export const validationError = (field: string | null, message: string) =>
  new ApiError(422, 'validation_error', message, field);

export const conflict = (code: string, message: string, field: string | null = null) =>
  new ApiError(409, code, message, field);

/** Dotted path of a zod issue, e.g. `items.2.vat_rate`; null for a whole-object issue. */
export function issuePath(issue: z.core.$ZodIssue): string | null {
  // An unknown key is the offending field itself, not the object that holds it.
  const path = issue.code === 'unrecognized_keys' && issue.keys[0] ? [...issue.path, issue.keys[0]] : issue.path;
  return path.length ? path.map(String).join('.') : null;
}

export function fromZodError(error: z.ZodError, prefix?: string): ApiError {
  const issue = error.issues[0];
  if (!issue) return validationError(prefix ?? null, 'Invalid input.');
  const path = issuePath(issue);
  const field = [prefix, path].filter(Boolean).join('.') || null;
  return validationError(field, field ? `${field}: ${issue.message}` : issue.message);
}

/**
 * Every invalid field of a form at once, keyed by dotted path, in French (the back-office shows them beside inputs;
 * lib/platform/i18n's catalogue words them, the API's 422 keeps its English through fromZodError).
 */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const path = issuePath(issue);
    out[path ?? '_form'] ??= frenchFieldMessage(path, issue.message, issue as Parameters<typeof frenchFieldMessage>[2]);
  }
  return out;
}
