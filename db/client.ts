import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { Pool } from 'pg';
import * as schema from './schema';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction handle; it is also a `Db`, so every query function accepts either. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type EngineKind = 'pglite' | 'postgres';

/** The one handle every module receives. `sql` runs raw SQL for adapters (pg-boss, rate limiter). */
export interface Database {
  db: Db;
  kind: EngineKind;
  sql(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  close(): Promise<void>;
}

export class DatabaseLockedError extends Error {
  constructor(dir: string) {
    super(
      `The embedded database in ${dir} is in use by another process (the running app?). ` +
        'PGlite cannot be opened by two processes: stop that process, or set DATABASE_URL to use PostgreSQL.',
    );
    this.name = 'DatabaseLockedError';
  }
}

export const MIGRATIONS_DIR = path.join(process.cwd(), 'db/migrations');

/**
 * DATABASE_URL set → node-postgres pool. Unset → PGlite: file-backed in PGLITE_DIR (default .data/pglite),
 * or in memory when PGLITE_DIR=memory (tests).
 */
export async function openDatabase(env: NodeJS.ProcessEnv = process.env, options: OpenOptions = {}): Promise<Database> {
  const url = env.DATABASE_URL;
  const migrationsFolder = options.migrationsFolder ?? MIGRATIONS_DIR;
  return url ? openPostgres(url, migrationsFolder) : openPglite(env.PGLITE_DIR ?? path.join(process.cwd(), '.data/pglite'), migrationsFolder);
}

export interface OpenOptions {
  /** The migrations to apply at opening (default db/migrations); a restore first migrates to its backup's level. */
  migrationsFolder?: string;
}

async function openPostgres(url: string, migrationsFolder: string): Promise<Database> {
  const { Pool } = await import('pg');
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const { migrate } = await import('drizzle-orm/node-postgres/migrator');
  const { NamedStatementClient } = await import('./named-statements');
  const { carryCallerContext } = await import('./traced-sql');
  const pool: Pool = new Pool({ connectionString: url, max: Number(process.env.DATABASE_POOL_MAX ?? 10), Client: NamedStatementClient });
  carryCallerContext(pool);
  // Several instances may start at once: one migrates, the others wait on the advisory lock.
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock(727274)');
    await migrate(drizzle({ client, schema }), { migrationsFolder });
  } finally {
    await client.query('SELECT pg_advisory_unlock(727274)').catch(() => {});
    client.release();
  }
  return {
    db: drizzle({ client: pool, schema }) as unknown as Db,
    kind: 'postgres',
    sql: async (text, values) => pool.query(text, values as unknown[]),
    close: () => pool.end(),
  };
}

async function openPglite(dir: string, migrationsFolder: string): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite');
  // PGlite only has the extensions it is given; the migrations create pg_trgm (contact search).
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  let release: (() => Promise<void>) | undefined;
  let client: PGlite;
  if (dir === 'memory') {
    // Tests: start from the migrated copy the test run made once (writePgliteTemplate), if any.
    const template = process.env.PGLITE_TEMPLATE;
    const loadDataDir = template ? new Blob([readFileSync(template)]) : undefined;
    client = new PGlite({ extensions: { pg_trgm }, loadDataDir });
  } else {
    mkdirSync(dir, { recursive: true });
    release = await lockDirectory(dir);
    client = new PGlite(dir, { extensions: { pg_trgm } });
  }
  const { tracedPglite } = await import('./traced-sql');
  const db = drizzle({ client: tracedPglite(client), schema });
  try {
    await migrate(db, { migrationsFolder });
  } catch (err) {
    await client.close().catch(() => {});
    await release?.();
    throw err;
  }
  return pgliteDatabase(client, db as unknown as Db, release);
}

function pgliteDatabase(client: PGlite, db: Db, release?: () => Promise<void>): Database {
  return {
    db,
    kind: 'pglite',
    sql: async (text, values) =>
      // PGlite's query() takes one statement; parameterless multi-statement SQL (pg-boss) goes through exec().
      values?.length || !text.includes(';')
        ? client.query(text, values as unknown[])
        : { rows: (await client.exec(text)).flatMap((r) => r.rows as Record<string, unknown>[]) },
    close: async () => {
      await client.close();
      await release?.();
    },
  };
}

/**
 * Writes an in-memory PGlite with every migration applied (and whatever `prepare` adds: the job queues) to `file`,
 * for PGLITE_TEMPLATE: a test file then loads it (~0.3 s) instead of migrating a new database (~1.7 s).
 */
export async function writePgliteTemplate(file: string, prepare?: (database: Database) => Promise<void>): Promise<void> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const client = new PGlite({ extensions: { pg_trgm } });
  try {
    const db = drizzle({ client, schema });
    await migrate(db, { migrationsFolder: MIGRATIONS_DIR });
    await prepare?.(pgliteDatabase(client, db as unknown as Db));
    writeFileSync(file, Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer()));
  } finally {
    await client.close();
  }
}

/** PGlite enforces no lock and two processes on one directory lose writes: we hold one ourselves. */
async function lockDirectory(dir: string): Promise<() => Promise<void>> {
  const lockfile = await import('proper-lockfile');
  try {
    return await lockfile.lock(dir, { stale: 15_000, update: 5_000, realpath: false });
  } catch (err) {
    if ((err as { code?: string }).code === 'ELOCKED') throw new DatabaseLockedError(dir);
    throw err;
  }
}

const globalKey = Symbol.for('paraphe.database');
type GlobalWithDb = typeof globalThis & { [globalKey]?: Promise<Database> };

/**
 * The process-wide database. Next.js may load this module in several bundles (routes, instrumentation,
 * server components); the promise lives on globalThis so they all share one engine and one lock.
 */
export function getDatabase(): Promise<Database> {
  const g = globalThis as GlobalWithDb;
  g[globalKey] ??= openDatabase().catch((err) => {
    g[globalKey] = undefined;
    throw err;
  });
  return g[globalKey];
}

export async function getDb(): Promise<Db> {
  return (await getDatabase()).db;
}

export async function closeDatabase(): Promise<void> {
  const g = globalThis as GlobalWithDb;
  const pending = g[globalKey];
  g[globalKey] = undefined;
  if (pending) await (await pending).close();
}
