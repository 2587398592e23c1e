import { validationError } from '@/lib/platform/errors';

// C0 controls and DEL, but tab, line feed and carriage return (multi-line notes keep them). PostgreSQL cannot store a
// NUL, and none of them belongs in a name, an address or a search: refused once here, for every query and body.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is what this expression is for.
const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/** Every string of a query or a JSON body, at any depth: one with a control character is a 422 naming its field. */
/** A C0 control character (but tab, line feed, carriage return) or DEL. */
export const hasControlCharacter = (s: string) => CONTROL_CHARACTER.test(s);

export function refuseControlCharacters<T>(input: T, path: string[] = []): T {
  if (typeof input === 'string') {
    if (CONTROL_CHARACTER.test(input)) {
      const field = path.join('.');
      throw validationError(field || null, `${field ? `${field}: ` : ''}contains a control character`);
    }
  } else if (Array.isArray(input)) {
    for (const [i, value] of input.entries()) refuseControlCharacters(value, [...path, String(i)]);
  } else if (input && typeof input === 'object') {
    for (const [key, value] of Object.entries(input)) refuseControlCharacters(value, [...path, key]);
  }
  return input;
}
