import { hash, randomInt } from 'node:crypto';
import { and, desc, eq, isNull } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '@/db/client';
import { apiKeys } from '@/db/schema';
import { notFound } from '@/lib/platform/errors';
import { hashSecret, verifySecret } from './passwords';
import { type Scope, SCOPES } from './scopes';

export const API_KEY_PREFIX = 'paraphe';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_PATTERN = /^paraphe_pk_(live|test)_([0-9A-Za-z]{32})$/;

export const ApiKeyEnv = z.enum(['live', 'test']);
export type ApiKeyEnv = z.infer<typeof ApiKeyEnv>;

export const CreateApiKeyInput = z.object({
  name: z.string().trim().min(1, 'A key needs a name.').max(100),
  scopes: z.array(z.enum(SCOPES)).min(1, 'Choose at least one scope.'),
  env: ApiKeyEnv.default('live'),
});
export type CreateApiKeyInput = z.input<typeof CreateApiKeyInput>;

/** What a verified key grants; cached briefly so argon2 is not paid on every request. */
export interface ApiKeyPrincipal {
  kind: 'api_key';
  keyId: string;
  orgId: string;
  scopes: Scope[];
}

function randomBase62(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += BASE62[randomInt(62)];
  return out;
}

export function generateApiKey(env: ApiKeyEnv): { key: string; lookupId: string } {
  const secret = randomBase62(32);
  return { key: `${API_KEY_PREFIX}_pk_${env}_${secret}`, lookupId: secret.slice(0, 8) };
}

export function publicApiKey(row: typeof apiKeys.$inferSelect) {
  return {
    id: row.id,
    name: row.name,
    lookup_id: row.lookup_id,
    prefix: `${API_KEY_PREFIX}_pk_${row.env}_${row.lookup_id}`,
    scopes: row.scopes,
    env: row.env,
    created_by: row.created_by,
    last_used_at: row.last_used_at,
    revoked_at: row.revoked_at,
    created_at: row.created_at,
  };
}
export type PublicApiKey = ReturnType<typeof publicApiKey>;

/** Creates a key; the cleartext is returned here once and never stored. */
export async function createApiKey(db: Db, orgId: string, input: CreateApiKeyInput, createdBy: string | null = null) {
  const data = CreateApiKeyInput.parse(input);
  const { key, lookupId } = generateApiKey(data.env);
  const [row] = await db
    .insert(apiKeys)
    .values({
      org_id: orgId,
      name: data.name,
      lookup_id: lookupId,
      hash: await hashSecret(key),
      scopes: [...new Set(data.scopes)],
      env: data.env,
      created_by: createdBy,
    })
    .returning();
  return { key, apiKey: publicApiKey(row!) };
}

export async function listApiKeys(db: Db, orgId: string) {
  const rows = await db.select().from(apiKeys).where(eq(apiKeys.org_id, orgId)).orderBy(desc(apiKeys.id));
  return rows.map(publicApiKey);
}

export async function revokeApiKey(db: Db, orgId: string, keyId: string) {
  const [row] = await db
    .update(apiKeys)
    .set({ revoked_at: new Date() })
    .where(and(eq(apiKeys.org_id, orgId), eq(apiKeys.id, keyId), isNull(apiKeys.revoked_at)))
    .returning();
  forgetKey(keyId);
  if (row) return publicApiKey(row);
  const [existing] = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.org_id, orgId), eq(apiKeys.id, keyId)));
  if (!existing) throw notFound('API key');
  return publicApiKey(existing);
}

// ---- verification cache --------------------------------------------------------------------------------

/**
 * Other processes learn of a revocation within this long: an entry older than this is checked again against its
 * row (one indexed read, no argon2) before it is trusted.
 */
export const KEY_CACHE_TTL_MS = 5_000;
const KEY_RECHECK_AHEAD_MS = 4_000;
const LAST_USED_RESOLUTION_MS = 60_000;
/** Only verified keys are cached; the bound keeps a flood of distinct valid keys from growing it without end. */
const CACHE_MAX_ENTRIES = 10_000;

/** `hash` is the row's hash the token was verified against: while the row keeps it, argon2 need not run again. */
type CacheEntry = { principal: ApiKeyPrincipal; hash: string; checkedAt: number };
const cacheKey = Symbol.for('paraphe.apiKeyCache');
// One cache per process even when Next.js loads this module in several bundles, so revocation reaches all.
const globalCache = globalThis as {
  [cacheKey]?: { entries: Map<string, CacheEntry>; inFlight: Map<string, Promise<ApiKeyPrincipal | null>>; revoked: Set<string> };
};
globalCache[cacheKey] ??= { entries: new Map(), inFlight: new Map(), revoked: new Set() };
// `revoked`: ids revoked by this process, so a verification already in flight cannot cache the key again.
const { entries: cache, inFlight, revoked } = globalCache[cacheKey];
const lastUsedWrites = new Map<string, number>();

const fingerprint = (token: string) => hash('sha256', token, 'base64url');

function forgetKey(keyId: string) {
  revoked.add(keyId);
  for (const [k, entry] of cache) if (entry.principal.keyId === keyId) cache.delete(k);
}

/**
 * Returns the key's grant, or null for a malformed, unknown, wrong or revoked key. Concurrent requests with the same
 * token share one verification, so a burst after start (or after expiry) costs one argon2 run, not one per request.
 */
export async function verifyApiKey(db: Db, token: string, now = Date.now()): Promise<ApiKeyPrincipal | null> {
  const match = KEY_PATTERN.exec(token);
  if (!match) return null;
  const fp = fingerprint(token);
  const cached = cache.get(fp);
  const age = cached ? now - cached.checkedAt : Number.POSITIVE_INFINITY;
  if (age < KEY_CACHE_TTL_MS) {
    // Checked again ahead of expiry, in the background, so that a busy key never makes a request wait for it.
    if (age >= KEY_RECHECK_AHEAD_MS && !inFlight.has(fp)) void single(fp, () => recheck(db, fp, cached!, now)).catch(() => {});
    return cached!.principal;
  }
  const principal = await single(fp, () => (cached ? recheck(db, fp, cached, now) : verify(db, fp, token, match[1]!, match[2]!, now)));
  // A verification shared with requests that came before a revocation in this process does not outlive it.
  return principal && revoked.has(principal.keyId) ? null : principal;
}

function single(fp: string, run: () => Promise<ApiKeyPrincipal | null>): Promise<ApiKeyPrincipal | null> {
  let pending = inFlight.get(fp);
  if (!pending) {
    pending = run().finally(() => inFlight.delete(fp));
    inFlight.set(fp, pending);
  }
  return pending;
}

async function verify(db: Db, fp: string, token: string, env: string, secret: string, now: number) {
  const [row] = await db
    .select()
    .from(apiKeys)
    .where(eq(apiKeys.lookup_id, secret.slice(0, 8)));
  if (!row || row.revoked_at || row.env !== env) return null;
  if (!(await verifySecret(row.hash, token))) return null;

  const principal: ApiKeyPrincipal = { kind: 'api_key', keyId: row.id, orgId: row.org_id, scopes: row.scopes as Scope[] };
  remember(fp, { principal, hash: row.hash, checkedAt: now });
  touchLastUsed(db, row.id, row.last_used_at, now);
  return principal;
}

function remember(fp: string, entry: CacheEntry) {
  if (revoked.has(entry.principal.keyId)) return;
  cache.delete(fp); // re-inserted last: the map's first key is the oldest entry, dropped when full
  if (cache.size >= CACHE_MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  cache.set(fp, entry);
}

/** An expired entry stays valid while its row is unrevoked and still holds the hash the token matched. */
async function recheck(db: Db, fp: string, entry: CacheEntry, now: number) {
  const [row] = await db
    .select({ hash: apiKeys.hash, revoked_at: apiKeys.revoked_at, scopes: apiKeys.scopes, last_used_at: apiKeys.last_used_at })
    .from(apiKeys)
    .where(eq(apiKeys.id, entry.principal.keyId));
  if (!row || row.revoked_at || row.hash !== entry.hash) {
    cache.delete(fp);
    return null;
  }
  const principal: ApiKeyPrincipal = { ...entry.principal, scopes: row.scopes as Scope[] };
  remember(fp, { principal, hash: row.hash, checkedAt: now });
  touchLastUsed(db, principal.keyId, row.last_used_at, now);
  return principal;
}

/** last_used_at is informative: written at most once a minute per key, never awaited by the request. */
function touchLastUsed(db: Db, keyId: string, lastUsedAt: Date | null, now: number) {
  const last = Math.max(lastUsedAt?.getTime() ?? 0, lastUsedWrites.get(keyId) ?? 0);
  if (now - last < LAST_USED_RESOLUTION_MS) return;
  lastUsedWrites.set(keyId, now);
  db.update(apiKeys)
    .set({ last_used_at: new Date(now) })
    .where(eq(apiKeys.id, keyId))
    .catch(() => lastUsedWrites.delete(keyId));
}
