import { count } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { apiKeys, orgs, users } from '@/db/schema';
import { openEmptyDatabase } from '@/lib/testing/fixtures';
import { seedDemo } from './seed';

it('seeds the demo once when several app processes start together on an empty database', async () => {
  const database = await openEmptyDatabase();
  try {
    const { db } = database;
    const results = await Promise.all([seedDemo(db), seedDemo(db), seedDemo(db)]);
    const seeded = results.filter((r) => r !== null);
    expect(seeded).toHaveLength(1);
    expect(seeded[0]!.apiKey).toMatch(/^paraphe_pk_live_/);
    const [orgCount] = await db.select({ n: count() }).from(orgs);
    const [userCount] = await db.select({ n: count() }).from(users);
    const [keyCount] = await db.select({ n: count() }).from(apiKeys);
    expect([orgCount!.n, userCount!.n, keyCount!.n]).toEqual([1, 1, 1]);
    expect(await seedDemo(db)).toBeNull();
  } finally {
    await database.close();
  }
});
