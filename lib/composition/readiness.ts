import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type Database, getDatabase, MIGRATIONS_DIR } from '@/db/client';
import { workersStarted } from '@/lib/platform/jobs';
import { getStorage, type ObjectStorage } from '@/lib/platform/storage';
import { log } from '@/lib/platform/log';

/**
 * Readiness (`/readyz`, issue 34): this process may take traffic when the database answers, every migration of the
 * journal is applied, the job workers run (unless WORKER_MODE=off: then `npm run worker` processes do) and the object
 * store takes a write. `/healthz` stays the cheap liveness that touches nothing. The answer names each check with `ok`
 * (or `off`) or a short reason; the details go to the server's log only (the route is public).
 */
export interface Readiness {
  ready: boolean;
  checks: { database: string; migrations: string; queue: string; storage: string };
}

export interface ReadinessOptions {
  database?: () => Promise<Database>;
  storage?: () => ObjectStorage;
  workerMode?: string;
  workersStarted?: () => boolean;
  /** The migration journal's entries (default db/migrations/meta/_journal.json). */
  journal?: () => { tag: string; when: number }[];
  timeoutMs?: number;
}

const OK = 'ok';

let journalCache: { tag: string; when: number }[] | undefined;
function migrationJournal(): { tag: string; when: number }[] {
  journalCache ??= (JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string; when: number }[] }).entries;
  return journalCache;
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Runs a check: its answer, or `reason` with the error logged. */
async function check(name: string, reason: string, run: () => Promise<string>, ms: number): Promise<string> {
  try {
    return await withTimeout(run(), ms, name);
  } catch (error) {
    log.error({ check: name, reason, err: error }, `readiness: ${name} ${reason}`);
    return reason;
  }
}

export async function readiness(options: ReadinessOptions = {}): Promise<Readiness> {
  const ms = options.timeoutMs ?? 3000;
  const mode = options.workerMode ?? process.env.WORKER_MODE ?? 'inline';
  const started = options.workersStarted ?? workersStarted;
  const open = options.database ?? getDatabase;
  const journal = options.journal ?? migrationJournal;
  const storage = options.storage ?? getStorage;

  const databaseCheck = async (): Promise<{ database: string; migrations: string }> => {
    let database: Database;
    try {
      database = await withTimeout(open(), ms, 'database');
      await withTimeout(database.sql('select 1'), ms, 'database');
    } catch (error) {
      log.error(error, 'readiness: database unreachable');
      return { database: 'unreachable', migrations: 'unknown' };
    }
    const migrations = await check(
      'migrations',
      'unknown',
      async () => {
        const { rows } = await database.sql('select created_at from drizzle.__drizzle_migrations');
        const applied = new Set(rows.map((r) => String(r.created_at)));
        const pending = journal().filter((entry) => !applied.has(String(entry.when)));
        return pending.length === 0 ? OK : `${pending.length} pending (${pending.map((e) => e.tag).join(', ')})`;
      },
      ms,
    );
    return { database: OK, migrations };
  };

  const storageCheck = () =>
    check(
      'storage',
      'not writable',
      async () => {
        const store = storage();
        const key = `readyz/probe-${randomUUID()}`;
        await store.put(key, new TextEncoder().encode('ok'), { contentType: 'text/plain' });
        await store.delete(key);
        return OK;
      },
      ms,
    );

  const [{ database, migrations }, storageState] = await Promise.all([databaseCheck(), storageCheck()]);
  const queue = mode === 'off' ? 'off' : started() ? OK : 'not started';
  const checks = { database, migrations, queue, storage: storageState };
  const ready = Object.values(checks).every((state) => state === OK || state === 'off');
  return { ready, checks };
}
