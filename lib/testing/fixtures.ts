import { randomUUID } from 'node:crypto';
import { type Database, getDatabase, getDb, openDatabase } from '@/db/client';
import { createApiKey, type Scope, SCOPES } from '@/lib/platform/auth';
import { createOrg } from '@/lib/platform/orgs';

/**
 * A fresh org for one test: tests share a database (one per worker on PGlite, one per run on PostgreSQL)
 * and stay isolated because every query is scoped by org.
 */
export async function createTestOrg(name = `Org ${randomUUID().slice(0, 8)}`) {
  const db = await getDb();
  const org = await createOrg(db, {
    name,
    legal_name: `${name} SAS`,
    legal_form: 'SAS',
    siren: '732829320',
    siret: '73282932000074',
    vat_number: 'FR44732829320',
    address: '12 rue de la Paix',
    postal_code: '75002',
    city: 'Paris',
  });
  const keys = new Map<string, string>();
  return {
    org,
    db,
    /** An API key of this org with the given scopes (all by default), memoized per scope set. */
    async key(scopes: readonly Scope[] = SCOPES): Promise<string> {
      const id = [...scopes].sort().join(',');
      if (!keys.has(id)) keys.set(id, (await createApiKey(db, org.id, { name: `test key ${keys.size + 1}`, scopes: [...scopes] })).key);
      return keys.get(id)!;
    },
  };
}
export type TestOrg = Awaited<ReturnType<typeof createTestOrg>>;

/**
 * A database of its own, migrated and empty, for the few tests about a whole database (first-run seeding): a new
 * in-memory PGlite, or a new database beside the PostgreSQL test one. `close` drops it.
 */
export async function openEmptyDatabase(): Promise<Database> {
  const shared = await getDatabase();
  if (shared.kind === 'pglite') return openDatabase({ ...process.env, PGLITE_DIR: 'memory' });
  const name = `paraphe_test_${randomUUID().replaceAll('-', '')}`;
  await shared.sql(`CREATE DATABASE ${name}`);
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${name}`;
  const database = await openDatabase({ ...process.env, DATABASE_URL: url.toString() });
  return {
    ...database,
    async close() {
      await database.close();
      // Not WITH (FORCE): killing sessions the pool is still closing makes their clients raise unhandled errors.
      for (let wait = 0; wait < 50; wait++) {
        const { rows } = await shared.sql('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
        if (rows[0]?.n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await shared.sql(`DROP DATABASE ${name}`);
    },
  };
}
