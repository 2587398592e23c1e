import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GET } from '@/app/readyz/route';
import { getDatabase } from '@/db/client';
import { LocalStorage, type ObjectStorage, setStorage } from '@/lib/platform/storage';
import { readiness } from './readiness';

const writable = () => new LocalStorage(mkdtempSync(path.join(tmpdir(), 'paraphe-readyz-')));
/** A store rooted under a plain file: every put fails (ENOTDIR), as on a full or read-only volume. */
function unwritable(): ObjectStorage {
  const dir = mkdtempSync(path.join(tmpdir(), 'paraphe-readyz-'));
  writeFileSync(path.join(dir, 'file'), 'x');
  return new LocalStorage(path.join(dir, 'file', 'storage'));
}

afterEach(() => setStorage(undefined));

describe('readiness (/readyz)', () => {
  it('is ready when the database answers, the migrations are applied, the workers run and the storage takes a write', async () => {
    const store = writable();
    const state = await readiness({ storage: () => store, workersStarted: () => true, workerMode: 'inline' });
    expect(state).toEqual({ ready: true, checks: { database: 'ok', migrations: 'ok', queue: 'ok', storage: 'ok' } });
    // The probe object is gone.
    expect(readdirSync(path.join(store.root, 'readyz'))).toEqual([]);
  });

  it('is not ready while the job workers are not started, unless WORKER_MODE=off', async () => {
    const store = writable();
    expect(await readiness({ storage: () => store, workersStarted: () => false, workerMode: 'inline' })).toEqual({
      ready: false,
      checks: { database: 'ok', migrations: 'ok', queue: 'not started', storage: 'ok' },
    });
    expect(await readiness({ storage: () => store, workersStarted: () => false, workerMode: 'off' })).toEqual({
      ready: true,
      checks: { database: 'ok', migrations: 'ok', queue: 'off', storage: 'ok' },
    });
  });

  it('is not ready when the storage refuses a write', async () => {
    const state = await readiness({ storage: unwritable, workersStarted: () => true, workerMode: 'inline' });
    expect(state).toEqual({ ready: false, checks: { database: 'ok', migrations: 'ok', queue: 'ok', storage: 'not writable' } });
  });

  it('is not ready when a migration of the journal is not applied, or the database does not answer', async () => {
    const store = writable();
    const pending = await readiness({
      storage: () => store,
      workersStarted: () => true,
      journal: () => [{ tag: '9999_not_yet', when: 4_102_444_800_000 }],
    });
    expect(pending.checks.migrations).toBe('1 pending (9999_not_yet)');
    expect(pending.ready).toBe(false);

    const down = await readiness({ storage: () => store, workersStarted: () => true, workerMode: 'inline', database: () => Promise.reject(new Error('ECONNREFUSED')) });
    expect(down).toEqual({ ready: false, checks: { database: 'unreachable', migrations: 'unknown', queue: 'ok', storage: 'ok' } });

    const database = await getDatabase();
    const hanging = await readiness({ storage: () => store, workersStarted: () => true, timeoutMs: 200, database: async () => ({ ...database, sql: () => new Promise(() => {}) }) });
    expect(hanging.checks.database).toBe('unreachable');
  });

  it('answers through the route: 503 with what is not ready, never cached', async () => {
    setStorage(unwritable());
    const response = await GET();
    expect(response.status).toBe(503);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = (await response.json()) as { ready: boolean; checks: Record<string, string> };
    expect(body.ready).toBe(false);
    expect(body.checks).toMatchObject({ database: 'ok', migrations: 'ok', storage: 'not writable' });
  });
});
