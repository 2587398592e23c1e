import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, getDatabase } from '@/db/client';
import { maintainTablesWithoutAutovacuum, tablesDueForMaintenance } from './table-maintenance';

let db: Db;
let kind: 'pglite' | 'postgres';
const rows = async <T>(query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;

beforeAll(async () => {
  ({ db, kind } = await getDatabase());
});

describe('tables without autovacuum, on PGlite', () => {
  it.runIf(!process.env.DATABASE_URL)('are left alone: PGlite keeps no statistics counters to go by', async () => {
    expect(kind).toBe('pglite');
    expect(await maintainTablesWithoutAutovacuum(db)).toBe('pglite');
  });
});

describe.skipIf(!process.env.DATABASE_URL)('tables without autovacuum (PostgreSQL)', () => {
  const probe = `maintenance_probe_${process.pid}`;
  const quiet = `maintenance_quiet_${process.pid}`;
  const stats = async (table: string) =>
    (
      await rows<{ analyzed: boolean; vacuumed: boolean; dead: number; reltuples: number }>(sql`
        SELECT s.last_analyze IS NOT NULL AS analyzed, s.last_vacuum IS NOT NULL AS vacuumed, s.n_dead_tup::int AS dead,
               c.reltuples::int AS reltuples
          FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
         WHERE s.schemaname = 'public' AND s.relname = ${table}`)
    )[0]!;
  /** Writes in one transaction, then has that connection publish its counters at once (they are otherwise sent ≤ 1 s later). */
  const write = (statements: string[]) =>
    db.transaction(async (tx) => {
      for (const statement of statements) await tx.execute(sql.raw(statement));
      await tx.execute(sql`SELECT pg_stat_force_next_flush()`);
    });
  const autovacuumOff = async () => (await rows<{ v: string }>(sql`SELECT current_setting('autovacuum') AS v`))[0]!.v === 'off';

  beforeAll(async () => {
    await write([
      `CREATE TABLE ${probe} (id int PRIMARY KEY, v int)`,
      `CREATE TABLE ${quiet} (id int PRIMARY KEY, v int)`,
      `INSERT INTO ${probe} SELECT g, g FROM generate_series(1, 1000) g`,
      `INSERT INTO ${quiet} SELECT g, g FROM generate_series(1, 20) g`,
    ]);
    await db.execute(sql.raw(`ANALYZE ${quiet}`));
  });
  afterAll(async () => {
    await db.execute(sql.raw(`DROP TABLE IF EXISTS ${probe}, ${quiet}`));
  });

  it("names the tables by autovacuum's rules: changed past the analyze threshold, not below it", async () => {
    const due = await tablesDueForMaintenance(db);
    expect(due).toContainEqual({ table: `public.${probe}`, action: 'analyze' });
    // 20 rows changed once analyzed, then 10 more: under 50 + 10 % of 20.
    await write([`UPDATE ${quiet} SET v = v + 1 WHERE id <= 10`]);
    expect((await tablesDueForMaintenance(db)).map((t) => t.table)).not.toContain(`public.${quiet}`);
  });

  it('analyzes a grown table where the server runs no autovacuum; vacuums one whose dead rows passed the threshold', async () => {
    const done = await maintainTablesWithoutAutovacuum(db);
    if (!(await autovacuumOff())) {
      expect(done).toBe('autovacuum runs');
      return;
    }
    expect(done).toContainEqual({ table: `public.${probe}`, action: 'analyze' });
    expect(await stats(probe)).toMatchObject({ analyzed: true, vacuumed: false, reltuples: 1000 });
    expect((await tablesDueForMaintenance(db)).map((t) => t.table)).not.toContain(`public.${probe}`);

    // 600 of 1,000 rows rewritten: 600 dead rows, past 50 + 20 % of 1,000.
    await write([`UPDATE ${probe} SET v = v + 1 WHERE id <= 600`]);
    expect(await tablesDueForMaintenance(db)).toContainEqual({ table: `public.${probe}`, action: 'vacuum' });
    expect(await maintainTablesWithoutAutovacuum(db)).toContainEqual({ table: `public.${probe}`, action: 'vacuum' });
    expect(await stats(probe)).toMatchObject({ vacuumed: true, dead: 0, reltuples: 1000 });
  });
});
