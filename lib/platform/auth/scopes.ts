import { z } from 'zod';

/** Module-granular scopes. A write scope also grants the read scope of its module. */
export const SCOPES = [
  'contacts:read',
  'contacts:write',
  'invoice:read',
  'invoice:write',
  'signature:read',
  'signature:write',
  'webhooks:read',
  'webhooks:write',
  'events:read',
] as const;

export type Scope = (typeof SCOPES)[number];
export const Scope = z.enum(SCOPES);

export function hasScope(granted: readonly string[], required: Scope): boolean {
  if (granted.includes(required)) return true;
  const [module, level] = required.split(':');
  return level === 'read' && granted.includes(`${module}:write`);
}

/** Parses a comma-separated scope list ("contacts:read,invoice:write" or "all"). */
export function parseScopeList(input: string): Scope[] {
  if (input.trim() === 'all') return [...SCOPES];
  const list = input
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return z.array(Scope).min(1).parse([...new Set(list)]);
}
