import { sql } from 'drizzle-orm';
import { type Db, getDatabase } from '@/db/client';
import { defineJob } from './define';
import { log } from '@/lib/platform/log';

/** What one table needed: VACUUM (ANALYZE) for its dead rows, or ANALYZE alone for its changed ones. */
export interface TableMaintenance {
  table: string;
  action: 'vacuum' | 'analyze';
}

/**
 * The tables autovacuum would vacuum or analyze now, by its own rules and settings: dead rows past
 * `autovacuum_vacuum_threshold + autovacuum_vacuum_scale_factor × rows` (VACUUM, with ANALYZE), else rows changed
 * since the last ANALYZE past `autovacuum_analyze_threshold + autovacuum_analyze_scale_factor × rows`. Our schemas only
 * (public, pgboss), leaf tables only (a partition is vacuumed on its own).
 */
export async function tablesDueForMaintenance(db: Db): Promise<TableMaintenance[]> {
  const result = (await db.execute(sql`
    SELECT t.table, CASE WHEN t.dead > t.vacuum_at THEN 'vacuum' ELSE 'analyze' END AS action
      FROM (SELECT format('%I.%I', s.schemaname, s.relname) AS table, s.n_dead_tup AS dead, s.n_mod_since_analyze AS changed,
                   current_setting('autovacuum_vacuum_threshold')::float8
                     + current_setting('autovacuum_vacuum_scale_factor')::float8 * greatest(c.reltuples, 0) AS vacuum_at,
                   current_setting('autovacuum_analyze_threshold')::float8
                     + current_setting('autovacuum_analyze_scale_factor')::float8 * greatest(c.reltuples, 0) AS analyze_at
              FROM pg_stat_user_tables s
              JOIN pg_class c ON c.oid = s.relid
             WHERE s.schemaname IN ('public', 'pgboss') AND c.relkind = 'r') t
     WHERE t.dead > t.vacuum_at OR t.changed > t.analyze_at
     ORDER BY 1
  `)) as unknown as { rows: TableMaintenance[] };
  return result.rows;
}

/**
 * Autovacuum's work, where the PostgreSQL server runs none (`autovacuum = off`): without it a table's statistics stay
 * those of its first rows and its dead rows are never reclaimed, so the plans PostgreSQL keeps for our prepared
 * statements (db/named-statements.ts) and trigger functions scan whole tables that have grown since (a monthly run:
 * docs/recurring.md). Where autovacuum runs, this does nothing. PGlite is left alone: its statistics counters are not
 * kept (pg_stat_user_tables stays at zero), and its database is one process's, the demo's and the tests'.
 */
export async function maintainTablesWithoutAutovacuum(db: Db): Promise<TableMaintenance[] | 'autovacuum runs' | 'pglite'> {
  if ((await getDatabase()).kind === 'pglite') return 'pglite';
  const setting = (await db.execute(sql`SELECT current_setting('autovacuum') AS on`)) as unknown as { rows: Array<{ on: string }> };
  if (setting.rows[0]?.on !== 'off') return 'autovacuum runs';
  const due = await tablesDueForMaintenance(db);
  for (const { table, action } of due) {
    // Outside any transaction (VACUUM refuses one); the name comes from format('%I.%I') above.
    await db.execute(sql.raw(action === 'vacuum' ? `VACUUM (ANALYZE) ${table}` : `ANALYZE ${table}`));
  }
  return due;
}

/** Once a minute, as autovacuum's launcher (`autovacuum_naptime`, 1 min by default). */
export const maintainTablesJob = defineJob<Record<string, never>>({
  name: 'maintenance.tables-without-autovacuum',
  retryLimit: 0,
  retryDelaySeconds: 60,
  retryBackoff: false,
  expireInSeconds: 600,
  cron: '* * * * *',
  async handle(_data, { db }) {
    const done = await maintainTablesWithoutAutovacuum(db);
    if (Array.isArray(done) && done.length > 0) log.info({ tables: done.map((t) => `${t.action} ${t.table}`) }, 'autovacuum is off: tables maintained');
  },
});
