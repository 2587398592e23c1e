// Credentials without a framework: API keys (their hash, lookup and cache), password hashing, scopes, the client's
// address behind the proxies, secrets refused in a query string, the sign-in refusal codes. The staff session
// (next-auth) and the throttling of guesses belong to the Next.js adapter (lib/platform/next).
export * from './api-keys';
export * from './client-address';
export * from './passwords';
export * from './scopes';
export * from './secret-query';
export * from './sign-in-errors';
