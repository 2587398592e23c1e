// The Next.js adapter, the only code of lib/ that imports next/* or next-auth: the /v1 route wrapper (`route`,
// `publicApiRoute`, the replies), the back-office's server-action wrapper and its form state, the staff session
// (next-auth's options, the session cookie, the CSRF cookie) and the throttling of sign-in and API-key guesses.
// Only app/, components/ and the entry points import it; a client component takes './client' (the form state).
export * from './action';
export * from './csrf-token';
export * from './form-state';
export * from './handler';
export * from './session';
export * from './staff';
export * from './throttle';
