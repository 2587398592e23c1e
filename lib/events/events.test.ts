import { and, asc, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { events } from '@/db/schema';
import { createTestOrg } from '@/lib/testing/fixtures';
import { recordEvents } from './events';

it('records one event per object in order, in the caller transaction, and none if it rolls back', async () => {
  const { db, org } = await createTestOrg();
  const objects = Array.from({ length: 1000 }, (_, i) => ({ i, name: `Zoé "${i}" \\ 🎉` }));
  await recordEvents(db, org.id, 'bulk.test', objects);
  const rows = await db.select().from(events).where(and(eq(events.org_id, org.id), eq(events.type, 'bulk.test'))).orderBy(asc(events.id));
  expect(rows.map((r) => r.payload)).toEqual(objects.map((object) => ({ object })));

  await expect(
    db.transaction(async (tx) => {
      await recordEvents(tx, org.id, 'bulk.rolled-back', [{ a: 1 }]);
      throw new Error('abort');
    }),
  ).rejects.toThrow('abort');
  expect(await db.select().from(events).where(and(eq(events.org_id, org.id), eq(events.type, 'bulk.rolled-back')))).toEqual([]);
});
