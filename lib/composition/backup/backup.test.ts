import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDatabase, type Database, getDatabase, type OpenOptions, openDatabase } from '@/db/client';
import { runCli } from '@/lib/composition/cli/program';
import { verifyChain } from '@/lib/domain/documents';
import { billingContext, line } from '@/lib/domain/documents/testing';
import { LocalStorage, readAll } from '@/lib/platform/storage';
import { createTestOrg } from '@/lib/testing/fixtures';
import { createDatabaseFromTemplate, onMaintenanceDatabase } from '@/lib/testing/worker-database';
import { backupCli } from './cli';
import type { Manifest } from './format';

// Issue 34, item 6: backup → restore into a fresh empty instance (same engine as the test run), then every org's
// chain verifies, the row counts match and a stored file's bytes are the same.

let tmp: string;
/** The first test's archive and what it holds, for the cross-engine one. */
let written: { archive: string; manifest: Manifest; orgIds: string[] } | undefined;
let target: { open: (options: OpenOptions) => Promise<Database>; drop: () => Promise<void> };
const source = () => new LocalStorage(path.join(tmp, 'storage-src'));
const restored = () => new LocalStorage(path.join(tmp, 'storage-dst'));

async function cli(args: string[], extension = backupCli({ database: getDatabase, openTarget: (o) => target.open(o), storage: source })) {
  const db = async () => (await getDatabase()).db;
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { db, out: (l) => out.push(l), err: (l) => err.push(l) }, [extension]);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** The archive is of a database of this file's own, fresh from the migrated template — the worker's database (its
 * PostgreSQL copy, or its in-memory PGlite, both kept from file to file) holds the orgs of the files run before, some
 * with chains broken on purpose, which a restore rightly refuses. */
let ownSource: string | null = null;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'paraphe-backup-test-'));
  const baseUrl = process.env.TEST_DATABASE_BASE_URL;
  if (process.env.DATABASE_URL && baseUrl) {
    ownSource = `${new URL(baseUrl).pathname.slice(1)}_b${randomUUID().slice(0, 8)}`;
    const url = await createDatabaseFromTemplate(baseUrl, ownSource);
    await closeDatabase();
    process.env.DATABASE_URL = url;
  } else if (!process.env.DATABASE_URL) {
    await closeDatabase(); // the next getDatabase loads a fresh PGlite from the template
  }
  const shared = await getDatabase();
  if (shared.kind === 'pglite') {
    // File-backed: the restore closes and reopens its target.
    const dir = path.join(tmp, 'pglite-target');
    target = { open: (o) => openDatabase({ ...process.env, PGLITE_DIR: dir }, o), drop: async () => {} };
  } else {
    const base = new URL(process.env.DATABASE_URL!);
    const name = `${base.pathname.slice(1)}_r${randomUUID().slice(0, 8)}`;
    await shared.sql(`CREATE DATABASE ${name}`);
    base.pathname = `/${name}`;
    target = {
      open: (o) => openDatabase({ ...process.env, DATABASE_URL: base.toString() }, o),
      drop: async () => {
        for (let wait = 0; wait < 50; wait++) {
          const { rows } = await shared.sql('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
          if (rows[0]?.n === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        await shared.sql(`DROP DATABASE ${name}`);
      },
    };
  }
});

afterAll(async () => {
  await target?.drop();
  await rm(tmp, { recursive: true, force: true });
  if (ownSource) {
    await closeDatabase();
    await onMaintenanceDatabase(process.env.TEST_DATABASE_BASE_URL!, (c) => c.query(`DROP DATABASE IF EXISTS "${ownSource}" WITH (FORCE)`));
  }
});

describe('backup and restore', () => {
  it('restores orgs with finalized invoices into an empty instance: chains verify, counts and file bytes match', async () => {
    const orgs = [];
    for (const name of ['Sauvegarde A', 'Sauvegarde B']) {
      const org = await createTestOrg(name);
      const api = await billingContext(org);
      const client = await api.contact();
      for (let i = 0; i < 3; i++) await api.issued({ type: 'facture', contact_id: client.id, items: [line(`Prestation ${i}`, '1.5', 10_000 + i)] });
      await api.draft({ type: 'facture', contact_id: client.id, items: [line('Brouillon', '2', 500)] });
      orgs.push(org);
    }
    const pdf = Buffer.from(`%PDF-1.7 backup test ${randomUUID()}\n\u00e9\u0000\u00ff`, 'latin1');
    const key = `documents/${orgs[0]!.org.id}/${randomUUID()}.pdf`;
    await source().put(key, pdf, { contentType: 'application/pdf' });

    const archive = path.join(tmp, 'paraphe.tar.gz');

    const backup = await cli(['backup', '--out', archive, '--tmp', tmp, '--json']);
    // The finalizations queued their render jobs (no worker runs in tests): the queue is not kept, and the backup says so.
    expect(backup.err).toMatch(/^(warning: \d+ queued job\(s\) are not in the backup .*)?$/);
    expect(backup.code).toBe(0);
    const { manifest, sha256 } = JSON.parse(backup.out) as { manifest: Manifest; sha256: string };
    expect(sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(manifest).toMatchObject({ format: 'paraphe.backup', version: 1, engine: (await getDatabase()).kind, files: { count: 1 } });
    expect(manifest.migrations.last_tag).toMatch(/^\d{4}_/);
    const shared = await getDatabase();
    for (const table of ['orgs', 'documents', 'document_items', 'hash_chains', 'number_counters', 'contacts']) {
      const { rows } = await shared.sql(`SELECT count(*)::int AS n FROM ${table}`);
      expect(manifest.tables.find((t) => t.name === table)?.rows, table).toBe(rows[0]?.n);
    }
    expect(manifest.tables.find((t) => t.name === 'documents')!.rows).toBeGreaterThanOrEqual(8);
    written = { archive, manifest, orgIds: orgs.map((o) => o.org.id) };

    const restore = await cli(['restore', '--from', archive, '--tmp', tmp, '--json'], backupCli({ openTarget: (o) => target.open(o), storage: restored }));
    expect(restore.err).toBe('');
    expect(restore.code).toBe(0);
    const report = JSON.parse(restore.out) as { rows: number; files: number; chains: Array<{ org_id: string; ok: boolean; verified: number }> };
    expect(report.files).toBe(1);
    expect(report.rows).toBe(manifest.tables.reduce((n, t) => n + t.rows, 0));
    for (const org of orgs) expect(report.chains).toContainEqual({ org_id: org.org.id, ok: true, verified: 3 });

    const db = await target.open({});
    try {
      for (const table of manifest.tables) {
        const { rows } = await db.sql(`SELECT count(*)::int AS n FROM "${table.name}"`);
        expect(rows[0]?.n, table.name).toBe(table.rows);
      }
      // The same hash, byte for byte, and chain:verify passes for every org on the restored database.
      const { rows } = (await db.db.execute(sql`SELECT content_hash FROM documents WHERE org_id = ${orgs[1]!.org.id} ORDER BY chain_index`)) as unknown as {
        rows: Array<{ content_hash: string | null }>;
      };
      const { rows: before } = await shared.sql('SELECT content_hash FROM documents WHERE org_id = $1 ORDER BY chain_index', [orgs[1]!.org.id]);
      expect(rows).toEqual(before);
      // What chain:verify runs, on the restored database.
      for (const org of orgs) expect(await verifyChain(db.db, org.org.id)).toMatchObject({ ok: true, verified: 3, first_broken: null, skipped_numbers: [] });
    } finally {
      await db.close();
    }
    const object = await restored().get(key);
    expect(object).toMatchObject({ contentType: 'application/pdf', size: pdf.length });
    expect(Buffer.compare(await readAll(object!.body), pdf)).toBe(0);

    // A second restore into the now non-empty instance is refused, and says why.
    const again = await cli(['restore', '--from', archive, '--tmp', tmp], backupCli({ openTarget: (o) => target.open(o), storage: restored }));
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/^error: restore refused or failed: the target database is not empty \(/);
  }, 300_000);

  // PostgreSQL pass: into PGlite. PGlite pass: into PostgreSQL when BACKUP_TEST_POSTGRES_URL names a server.
  const crossUrl = process.env.DATABASE_URL ? undefined : process.env.BACKUP_TEST_POSTGRES_URL;
  it.skipIf(!process.env.DATABASE_URL && !crossUrl)('restores a backup of one engine into the other', async () => {
    expect(written).toBeDefined();
    const { archive, manifest, orgIds } = written!;
    let open: (o: OpenOptions) => Promise<Database>;
    let drop = async () => {};
    if (crossUrl) {
      const admin = await openDatabase({ ...process.env, DATABASE_URL: crossUrl });
      const name = `${new URL(crossUrl).pathname.slice(1)}_x${randomUUID().slice(0, 8)}`;
      await admin.sql(`CREATE DATABASE ${name}`);
      const url = new URL(crossUrl);
      url.pathname = `/${name}`;
      open = (o) => openDatabase({ ...process.env, DATABASE_URL: url.toString() }, o);
      drop = async () => {
        await new Promise((resolve) => setTimeout(resolve, 500));
        await admin.sql(`DROP DATABASE ${name}`);
        await admin.close();
      };
    } else {
      const dir = path.join(tmp, 'pglite-cross');
      const env = { ...process.env, PGLITE_DIR: dir, DATABASE_URL: '' };
      open = (o) => openDatabase(env, o);
    }
    try {
      const storage = new LocalStorage(path.join(tmp, 'storage-cross'));
      const restore = await cli(['restore', '--from', archive, '--tmp', tmp, '--json'], backupCli({ openTarget: open, storage: () => storage }));
      expect(restore.err).toBe('');
      expect(restore.code).toBe(0);
      const report = JSON.parse(restore.out) as { rows: number; chains: Array<{ org_id: string; ok: boolean }> };
      expect(report.rows).toBe(manifest.tables.reduce((n, t) => n + t.rows, 0));
      for (const id of orgIds) expect(report.chains).toContainEqual({ org_id: id, ok: true, verified: 3 });
      const db = await open({});
      try {
        expect(db.kind).toBe(crossUrl ? 'postgres' : 'pglite');
        for (const id of orgIds) expect(await verifyChain(db.db, id)).toMatchObject({ ok: true, verified: 3 });
      } finally {
        await db.close();
      }
    } finally {
      await drop();
    }
  }, 300_000);
});
