import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { apiKeys } from '@/db/schema';
import { createTestOrg } from '@/lib/testing/fixtures';
import { createApiKey, generateApiKey, KEY_CACHE_TTL_MS, listApiKeys, verifyApiKey } from './api-keys';

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
