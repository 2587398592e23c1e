// What a client component may take of lib/platform/auth (the scopes a key form offers, the sign-in refusals the
// login form words): pure values, no database, no Node.js.
export * from './scopes';
export * from './sign-in-errors';
