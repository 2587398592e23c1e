import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { EVENT_TYPES, type EventType } from '@/lib/platform/events';

/**
 * The committed webhook examples (events.json) and how the catalogue walk (lib/platform/events/catalogue-walk.test.ts) keeps
 * them true: with UPDATE_EVENT_EXAMPLES=1 (`npm run openapi:examples`) it writes the first body of each token its real
 * operations produced (tokens not emitted yet have none: lib/platform/openapi/webhooks.ts builds theirs); otherwise it checks that each committed example still has the same fields, at every depth, as
 * the body the walk just produced (a field added, renamed or removed fails until the examples are written again).
 */
export const EVENT_EXAMPLES_FILE = path.join(import.meta.dirname, 'events.json');

/** Every key path of a JSON value (`.data.object.items[].label`). */
export function keyPaths(value: unknown, at = '', out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) keyPaths(v, `${at}[]`, out);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.add(`${at}.${k}`);
      keyPaths(v, `${at}.${k}`, out);
    }
  }
  return out;
}

/**
 * Writes events.json from `bodies` (UPDATE_EVENT_EXAMPLES=1) and returns [], or returns the tokens whose committed
 * example is missing or differs in its fields from the body just produced.
 */
export function recordEventExamples(bodies: Partial<Record<EventType, unknown>>): string[] {
  if (process.env.UPDATE_EVENT_EXAMPLES === '1') {
    const all: Record<string, unknown> = {};
    for (const type of EVENT_TYPES) if (bodies[type] !== undefined) all[type] = bodies[type];
    writeFileSync(EVENT_EXAMPLES_FILE, `${JSON.stringify(all, null, 2)}\n`);
    return [];
  }
  const committed = JSON.parse(readFileSync(EVENT_EXAMPLES_FILE, 'utf8')) as Record<string, unknown>;
  const differing: string[] = [];
  for (const [type, body] of Object.entries(bodies)) {
    const paths = (v: unknown) => [...keyPaths(v)].sort().join(' ');
    if (!(type in committed) || paths(committed[type]) !== paths(body)) differing.push(type);
  }
  return differing;
}
