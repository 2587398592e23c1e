// The operation contract: one `operation()` object per /v1 endpoint (path, scope, zod schemas of params, query, body
// and answers, declared errors), from which the route wrapper validates, lib/platform/openapi writes the document and
// the typed client is generated; and the field schemas every module's answers share (ids, timestamps, pages, texts).
export * from './email';
export * from './operation';
export * from './schemas';
