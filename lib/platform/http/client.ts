// What a client component may take of lib/platform/http: nothing here reaches the database or Node.js.
export { hasControlCharacter } from './control-characters';
