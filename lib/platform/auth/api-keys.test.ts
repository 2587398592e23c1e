import { eq } from 'drizzle-orm';
import { expect, it, vi } from 'vitest';
import { apiKeys } from '@/db/schema';
import { createTestOrg } from '@/lib/testing/fixtures';

// The real argon2, observed: how many verifications a burst costs.
const argon2Verify = vi.hoisted(() => vi.fn());
vi.mock('@node-rs/argon2', async (original) => {
  const real = await original<typeof import('@node-rs/argon2')>();
  argon2Verify.mockImplementation(real.verify);
  return { ...real, verify: argon2Verify };
});

// Test files share their process's modules (vitest.config.ts): this one loads api-keys afresh, so that it sees the mock.
vi.resetModules();
const { createApiKey, generateApiKey, KEY_CACHE_TTL_MS, listApiKeys, revokeApiKey, verifyApiKey } = await import('./api-keys');

it('generates keys of the documented shape whose lookup id is their first 8 random characters', () => {
  const { key, lookupId } = generateApiKey('live');
  expect(key).toMatch(/^paraphe_pk_live_[0-9A-Za-z]{32}$/);
  expect(key.slice('paraphe_pk_live_'.length, 'paraphe_pk_live_'.length + 8)).toBe(lookupId);
  expect(generateApiKey('test').key).toMatch(/^paraphe_pk_test_/);
});

it('stores only an argon2id hash, never the key', async () => {
  const { db, org } = await createTestOrg();
  const { key, apiKey } = await createApiKey(db, org.id, { name: 'stored', scopes: ['contacts:read'] });
  const [row] = await db.select().from(apiKeys).where(eq(apiKeys.id, apiKey.id));
  expect(row!.hash).toMatch(/^\$argon2id\$/);
  expect(JSON.stringify(row)).not.toContain(key.slice(-24));
  expect(JSON.stringify(await listApiKeys(db, org.id))).not.toContain(key.slice(-24));
});

it('honours a revocation made by another process once the cache entry expires (at most 5 s)', async () => {
  const { db, org } = await createTestOrg();
  const { key, apiKey } = await createApiKey(db, org.id, { name: 'elsewhere', scopes: ['contacts:read'] });
  const t0 = Date.now();
  expect(await verifyApiKey(db, key, t0)).toMatchObject({ keyId: apiKey.id });
  // Another instance revokes: only the database knows, this process's cache does not.
  await db.update(apiKeys).set({ revoked_at: new Date() }).where(eq(apiKeys.id, apiKey.id));
  expect(await verifyApiKey(db, key, t0 + 1_000)).not.toBeNull();
  expect(await verifyApiKey(db, key, t0 + KEY_CACHE_TTL_MS + 1)).toBeNull();
  expect(KEY_CACHE_TTL_MS).toBeLessThanOrEqual(5_000);
});

it('rechecks a busy key ahead of expiry without making the request wait, and sees a revocation from then on', async () => {
  const { db, org } = await createTestOrg();
  const { key, apiKey } = await createApiKey(db, org.id, { name: 'busy', scopes: ['contacts:read'] });
  const t0 = Date.now();
  await verifyApiKey(db, key, t0);
  await db.update(apiKeys).set({ revoked_at: new Date() }).where(eq(apiKeys.id, apiKey.id));
  // Past 4 s the cached grant still answers (within the 5 s promise) while the row is read again behind it…
  expect(await verifyApiKey(db, key, t0 + 4_500)).toMatchObject({ keyId: apiKey.id });
  await vi.waitFor(async () => expect(await verifyApiKey(db, key, t0 + 4_600)).toBeNull());
});

it('keeps trusting an expired entry only while its row still holds the hash the key matched', async () => {
  const { db, org } = await createTestOrg();
  const { key, apiKey } = await createApiKey(db, org.id, { name: 'rotated', scopes: ['contacts:read', 'contacts:write'] });
  const t0 = Date.now();
  await verifyApiKey(db, key, t0);
  // Scopes narrowed in the database are picked up at the next check.
  await db.update(apiKeys).set({ scopes: ['contacts:read'] }).where(eq(apiKeys.id, apiKey.id));
  expect(await verifyApiKey(db, key, t0 + KEY_CACHE_TTL_MS + 1)).toMatchObject({ scopes: ['contacts:read'] });
  // A row whose hash changed no longer vouches for this key.
  await db.update(apiKeys).set({ hash: '$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHQ$cmVwbGFjZWQ' }).where(eq(apiKeys.id, apiKey.id));
  expect(await verifyApiKey(db, key, t0 + 2 * KEY_CACHE_TTL_MS + 2)).toBeNull();
});

it('verifies a burst of concurrent requests with one argon2 run', async () => {
  const { db, org } = await createTestOrg();
  const { key, apiKey } = await createApiKey(db, org.id, { name: 'burst', scopes: ['contacts:read'] });
  argon2Verify.mockClear();
  const grants = await Promise.all(Array.from({ length: 20 }, () => verifyApiKey(db, key)));
  expect(grants.every((g) => g?.keyId === apiKey.id)).toBe(true);
  expect(argon2Verify).toHaveBeenCalledTimes(1);
});

it('refuses a key revoked in this process at once, even to a request that joins a verification started before', async () => {
  const { db, org } = await createTestOrg();
  const { key, apiKey } = await createApiKey(db, org.id, { name: 'revoked mid-flight', scopes: ['contacts:read'] });
  // A first request starts the argon2 verification (it read the row while the key was still valid)…
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const realVerify = argon2Verify.getMockImplementation()!;
  argon2Verify.mockClear().mockImplementationOnce(async (...args: unknown[]) => {
    await held;
    return realVerify(...args);
  });
  const first = verifyApiKey(db, key);
  await vi.waitFor(() => expect(argon2Verify).toHaveBeenCalled());
  // …staff revoke the key meanwhile; a request arriving after the revocation must not ride on that verification.
  await revokeApiKey(db, org.id, apiKey.id);
  const joined = verifyApiKey(db, key);
  release();
  expect(await joined).toBeNull();
  await first;
  expect(await verifyApiKey(db, key)).toBeNull();

  // The same with an expired entry being re-checked against its row.
  const other = await createApiKey(db, org.id, { name: 'revoked mid-recheck', scopes: ['contacts:read'] });
  const t0 = Date.now();
  await verifyApiKey(db, other.key, t0);
  const recheck = verifyApiKey(db, other.key, t0 + 4_500); // answers from cache, re-reads the row behind it
  await revokeApiKey(db, org.id, other.apiKey.id);
  expect(await verifyApiKey(db, other.key, t0 + KEY_CACHE_TTL_MS + 1)).toBeNull();
  await recheck;
});
