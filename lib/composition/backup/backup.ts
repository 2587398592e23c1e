import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { create } from 'tar';
import type { Database, Tx } from '@/db/client';
import type { ObjectStorage } from '@/lib/platform/storage';
import {
  BACKUP_FORMAT,
  BACKUP_VERSION,
  EXCLUDED_TABLES,
  type FileEntry,
  type Manifest,
  quoteIdent,
  readJournal,
  sha256File,
  type TablePart,
  tagOf,
} from './format';

export interface BackupOptions {
  database: Database;
  storage: ObjectStorage;
  /** The archive to write (`.tar.gz`); written beside as `<out>.partial`, renamed when complete. */
  out: string;
  /** Where the parts are staged before they are archived (default: the system's temporary directory). */
  tmpDir?: string;
  log?: (line: string) => void;
}

export interface BackupResult {
  manifest: Manifest;
  out: string;
  /** SHA-256 of the archive itself, to record beside it (the manifest cannot hold its own). */
  sha256: string;
  warnings: string[];
}

const FETCH = 1000;
type Rows = { rows: Record<string, unknown>[] };

/** The public tables and their stored columns (generated ones left out: the target computes them). */
export async function listTables(tx: Pick<Tx, 'execute'>): Promise<Array<{ name: string; columns: string[] }>> {
  const { rows } = (await tx.execute(
    sql.raw(`SELECT c.relname AS name, array_agg(a.attname::text ORDER BY a.attnum) AS columns
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
      WHERE n.nspname = 'public' AND c.relkind = 'r'
      GROUP BY c.relname ORDER BY c.relname`),
  )) as unknown as Rows;
  return rows.map((r) => ({ name: String(r.name), columns: r.columns as string[] })).filter((t) => !EXCLUDED_TABLES.has(t.name));
}

/**
 * Writes a consistent archive of the database and the stored files. The rows are read in one REPEATABLE READ, READ
 * ONLY transaction (one snapshot: every table as of the same instant, while the app keeps writing on PostgreSQL),
 * table by table through a cursor; then every object of the store is copied with its SHA-256 checked. An object
 * is written once under a new key and never changed (renders, uploads, seals), so the objects a snapshot row names
 * are still there when the files are copied after it.
 */
export async function createBackup({ database, storage, out, tmpDir, log = () => {} }: BackupOptions): Promise<BackupResult> {
  const staging = await mkdtemp(path.join(tmpDir ?? os.tmpdir(), 'paraphe-backup-'));
  const warnings: string[] = [];
  try {
    await mkdir(path.join(staging, 'db'));
    const { entries } = await readJournal();
    const snapshot = await database.db.transaction(
      async (tx) => {
        await tx.execute(sql.raw(`SET LOCAL TimeZone = 'UTC'`));
        const level = ((await tx.execute(sql.raw('SELECT count(*)::int AS applied, max(created_at)::text AS last FROM drizzle.__drizzle_migrations'))) as unknown as Rows)
          .rows[0]!;
        const tables: TablePart[] = [];
        for (const { name, columns } of await listTables(tx)) {
          const rel = `db/${name}.jsonl`;
          const file = await open(path.join(staging, rel), 'w');
          const hash = createHash('sha256');
          let rows = 0;
          try {
            const select = `SELECT row_to_json(r)::text AS j FROM (SELECT ${columns.map(quoteIdent).join(', ')} FROM public.${quoteIdent(name)}) r`;
            await tx.execute(sql.raw(`DECLARE paraphe_backup NO SCROLL CURSOR FOR ${select}`));
            for (;;) {
              const batch = ((await tx.execute(sql.raw(`FETCH FORWARD ${FETCH} FROM paraphe_backup`))) as unknown as Rows).rows;
              if (!batch.length) break;
              const chunk = `${batch.map((r) => r.j as string).join('\n')}\n`;
              hash.update(chunk);
              await file.write(chunk);
              rows += batch.length;
            }
            await tx.execute(sql.raw('CLOSE paraphe_backup'));
          } finally {
            await file.close();
          }
          tables.push({ name, rows, columns, path: rel, sha256: hash.digest('hex') });
          log(`db: ${name} ${rows} row(s)`);
        }
        const jobs: Record<string, number> = {};
        const queue = ((await tx.execute(sql.raw(`SELECT to_regclass('pgboss.job') IS NOT NULL AS present`))) as unknown as Rows).rows[0];
        if (queue?.present) {
          const counts = (await tx.execute(sql.raw('SELECT state::text AS state, count(*)::int AS n FROM pgboss.job GROUP BY 1 ORDER BY 1'))) as unknown as Rows;
          for (const r of counts.rows) jobs[String(r.state)] = Number(r.n);
        }
        return { level, tables, jobs };
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
    const waiting = ['created', 'retry', 'active'].reduce((n, s) => n + (snapshot.jobs[s] ?? 0), 0);
    if (waiting) warnings.push(`${waiting} queued job(s) are not in the backup (pg-boss's queue is not kept: see docs/operations.md).`);

    // Files: every object of the store, its bytes hashed as they are copied.
    const index = await open(path.join(staging, 'files.jsonl'), 'w');
    const indexHash = createHash('sha256');
    let count = 0;
    let bytes = 0;
    try {
      if (!storage.list) throw new Error(`the ${storage.kind} store cannot list its objects: no backup of its files.`);
      for await (const key of storage.list()) {
        const object = await storage.get(key);
        if (!object) {
          warnings.push(`object ${key} vanished while the backup ran (deleted meanwhile).`);
          continue;
        }
        const rel = `files/${key}`;
        await mkdir(path.dirname(path.join(staging, rel)), { recursive: true });
        const file = await open(path.join(staging, rel), 'w');
        const hash = createHash('sha256');
        let size = 0;
        try {
          for await (const chunk of object.body as unknown as AsyncIterable<Uint8Array>) {
            hash.update(chunk);
            size += chunk.byteLength;
            await file.write(chunk);
          }
        } finally {
          await file.close();
        }
        const sha256 = hash.digest('hex');
        if (object.sha256 && object.sha256 !== sha256) warnings.push(`object ${key}: its bytes no longer match the SHA-256 recorded when it was stored (${object.sha256}).`);
        const entry: FileEntry = { key, size, sha256, content_type: object.contentType, path: rel };
        const line = `${JSON.stringify(entry)}\n`;
        indexHash.update(line);
        await index.write(line);
        count += 1;
        bytes += size;
        if (count % 200 === 0) log(`files: ${count} copied (${(bytes / 1e6).toFixed(1)} MB)`);
      }
    } finally {
      await index.close();
    }
    log(`files: ${count} copied (${(bytes / 1e6).toFixed(1)} MB)`);

    const pkg = JSON.parse(await readFile(path.join(process.cwd(), 'package.json'), 'utf8')) as { version?: string };
    const last = snapshot.level.last === null || snapshot.level.last === undefined ? null : String(snapshot.level.last);
    const manifest: Manifest = {
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      engine: database.kind,
      created_at: new Date().toISOString(),
      app_version: pkg.version ?? 'unknown',
      migrations: { applied: Number(snapshot.level.applied), last_tag: tagOf(entries, last), last_created_at: last },
      tables: snapshot.tables,
      files: { count, bytes, index: { path: 'files.jsonl', sha256: indexHash.digest('hex') } },
      excluded: { tables: [...EXCLUDED_TABLES], pgboss: { kept: false, jobs_by_state: snapshot.jobs } },
    };
    await writeFile(path.join(staging, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);

    const target = path.resolve(out);
    const partial = `${target}.partial`;
    await mkdir(path.dirname(target), { recursive: true });
    try {
      await create({ gzip: true, file: partial, cwd: staging, portable: true }, ['manifest.json', 'db', 'files.jsonl', ...(count ? ['files'] : [])]);
      await rename(partial, target);
    } catch (err) {
      await rm(partial, { force: true });
      throw err;
    }
    const sha256 = await sha256File(target);
    log(`archive: ${target} (${((await stat(target)).size / 1e6).toFixed(1)} MB, sha256 ${sha256})`);
    return { manifest, out: target, sha256, warnings };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
