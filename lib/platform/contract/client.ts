// What a client component may take of lib/platform/contract: nothing here reaches the database or Node.js.
export { withinEmailLengths } from './email';
