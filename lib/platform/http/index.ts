// HTTP without a framework: the JSON body's reading and its limits, control characters, deprecation headers,
// Idempotency-Key, cursor pagination, the shared rate limiter, the security headers. The domain modules use it (their
// lists page through `toPage`); the Next.js adapter (lib/platform/next: the route wrapper, the server-action
// wrapper, the staff session) builds on it.
export * from './body';
export * from './control-characters';
export * from './deprecation';
export * from './idempotency';
export * from './pagination';
export * from './rate-limit';
export * from './security-headers';
