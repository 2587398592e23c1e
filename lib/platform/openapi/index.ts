// The OpenAPI 3.1 document of /v1, built from the installed modules' operations (lib/platform/contract) and the event
// catalogue (its webhooks), with the declared errors, headers and operation ids it derives from each operation and
// the committed examples. The document's tooling (its diff, the typed client, the linters: diff.ts, generated.ts,
// lint.ts) is for scripts and tests and stays out of this index, which the /v1/openapi.json route bundles.
export * from './document';
export * from './errors';
export * from './examples/api';
export * from './headers';
export * from './names';
export * from './tags';
export * from './webhooks';
