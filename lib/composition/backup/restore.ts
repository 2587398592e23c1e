import { createReadStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { sql } from 'drizzle-orm';
import { extract } from 'tar';
import type { Database, OpenOptions, Tx } from '@/db/client';
import { verifyChain } from '@/lib/domain/documents';
import type { ObjectStorage } from '@/lib/platform/storage';
import { listTables } from './backup';
import { BACKUP_FORMAT, BACKUP_VERSION, EXCLUDED_TABLES, type FileEntry, type Manifest, migrationsUpTo, quoteIdent, readJournal, sha256File } from './format';

export interface RestoreOptions {
  from: string;
  /** Opens the target database, applying the migrations of `options.migrationsFolder` (all of them when unset). */
  open: (options: OpenOptions) => Promise<Database>;
  storage: ObjectStorage;
  tmpDir?: string;
  log?: (line: string) => void;
}

export interface RestoreResult {
  manifest: Manifest;
  rows: number;
  files: number;
  /** Every org's chain, verified after the restore. */
  chains: Array<{ org_id: string; ok: boolean; verified: number }>;
}

/** A refusal or a failed check of the restore: one clear line. */
export class RestoreError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RestoreError';
  }
}

const BATCH_ROWS = 500;
const BATCH_BYTES = 8_000_000;
type Rows = { rows: Record<string, unknown>[] };

/**
 * Restores an archive of createBackup into an empty instance: checks every part's SHA-256, migrates the target to
 * the backup's level, refuses a target that holds any row or any stored object, loads every table in one
 * transaction, checks the row counts, applies the later migrations, puts the files back (each SHA-256 checked) and
 * verifies the hash chain of every org.
 *
 * The rows are loaded with `session_replication_role = replica` for that transaction only: no user trigger and no
 * foreign-key trigger fires, so the finalized documents, chain heads and counters go in as they were sealed — the
 * immutability triggers of migrations 0005/0016 exist to refuse exactly such inserts from the app — and the tables
 * load in any order. What vouches for the rows instead is the archive's checksums, the count check and the chain
 * verification at the end. PGlite runs as a superuser; on PostgreSQL the role needs to be a superuser or have
 * `GRANT SET ON PARAMETER session_replication_role` (PostgreSQL 15+).
 */
export async function restoreBackup({ from, open, storage, tmpDir, log = () => {} }: RestoreOptions): Promise<RestoreResult> {
  const staging = await mkdtemp(path.join(tmpDir ?? os.tmpdir(), 'paraphe-restore-'));
  try {
    await extract({ file: path.resolve(from), cwd: staging, strict: true }).catch((err: Error) => {
      throw new RestoreError(`${from} is not a readable backup archive (${err.message}).`);
    });
    const manifest = await readManifest(staging);
    await checkParts(staging, manifest, log);
    const files = await readIndex(staging, manifest);
    log(`archive: ${files.length} file(s) checked`);

    // The target at the backup's migration level.
    const { entries } = await readJournal();
    const level = manifest.migrations.last_created_at === null ? 0 : entries.findIndex((e) => String(e.when) === manifest.migrations.last_created_at) + 1;
    if (level === 0 && manifest.migrations.last_created_at !== null) {
      const newest = entries.at(-1);
      throw new RestoreError(
        newest && Number(manifest.migrations.last_created_at) > newest.when
          ? `the backup was written at migration ${manifest.migrations.last_tag ?? manifest.migrations.last_created_at}, newer than this installation (${newest.tag}): upgrade Paraphe first.`
          : `the backup's migration level ${manifest.migrations.last_tag ?? manifest.migrations.last_created_at} is unknown to this installation.`,
      );
    }
    const database = await open({ migrationsFolder: await migrationsUpTo(level, path.join(staging, 'migrations')) });
    let rows = 0;
    try {
      const current = ((await database.db.execute(sql.raw('SELECT max(created_at)::text AS last FROM drizzle.__drizzle_migrations'))) as unknown as Rows).rows[0]
        ?.last as string | null;
      if (current !== null && current !== undefined && (manifest.migrations.last_created_at === null || Number(current) > Number(manifest.migrations.last_created_at))) {
        throw new RestoreError(
          `the target database is already migrated past the backup's level (${manifest.migrations.last_tag ?? 'none'}): restore into a database no newer Paraphe has opened (a new PGLITE_DIR, a new PostgreSQL database), then start the app to upgrade it.`,
        );
      }
      await assertEmpty(database, storage);
      rows = await database.db.transaction(async (tx) => loadRows(tx, staging, manifest, log));
    } finally {
      await database.close();
    }

    // Puts the files back, each checked against the manifest's SHA-256.
    let done = 0;
    for (const entry of files) {
      const body = await readFile(path.join(staging, entry.path));
      const stored = await storage.put(entry.key, body, { contentType: entry.content_type });
      if (stored.sha256 !== entry.sha256) throw new RestoreError(`file ${entry.key}: stored with SHA-256 ${stored.sha256}, the backup says ${entry.sha256}.`);
      done += 1;
      if (done % 200 === 0) log(`files: ${done}/${files.length} restored`);
    }
    log(`files: ${done}/${files.length} restored`);

    // The later migrations, then every org's chain.
    const upgraded = await open({});
    try {
      const orgs = ((await upgraded.db.execute(sql.raw('SELECT id::text AS id FROM orgs ORDER BY id'))) as unknown as Rows).rows.map((r) => String(r.id));
      const chains: RestoreResult['chains'] = [];
      for (const orgId of orgs) {
        const report = await verifyChain(upgraded.db, orgId);
        chains.push({ org_id: orgId, ok: report.ok, verified: report.verified });
      }
      const broken = chains.filter((c) => !c.ok);
      log(`chains: ${chains.length - broken.length}/${chains.length} org(s) verified`);
      if (broken.length) throw new RestoreError(`restored, but the hash chain of ${broken.length} org(s) does not verify: ${broken.map((c) => c.org_id).join(', ')} (run chain:verify --org ID).`);
      return { manifest, rows, files: done, chains };
    } finally {
      await upgraded.close();
    }
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

async function readManifest(staging: string): Promise<Manifest> {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(await readFile(path.join(staging, 'manifest.json'), 'utf8')) as Manifest;
  } catch {
    throw new RestoreError('the archive has no readable manifest.json: not a Paraphe backup.');
  }
  if (manifest.format !== BACKUP_FORMAT) throw new RestoreError('the archive is not a Paraphe backup (manifest format).');
  if (manifest.version !== BACKUP_VERSION) throw new RestoreError(`backup format version ${manifest.version} is not supported (this installation reads ${BACKUP_VERSION}).`);
  return manifest;
}

/** Every part against the manifest, before anything is written. */
async function checkParts(staging: string, manifest: Manifest, log: (line: string) => void) {
  for (const part of [...manifest.tables, manifest.files.index]) {
    const actual = await sha256File(path.join(staging, part.path)).catch(() => null);
    if (actual !== part.sha256) throw new RestoreError(`the archive is damaged: ${part.path} ${actual ? 'does not match its SHA-256' : 'is missing'}.`);
  }
  log(`archive: ${manifest.tables.length} table part(s) checked (backup of ${manifest.created_at}, ${manifest.engine}, migration ${manifest.migrations.last_tag ?? 'none'})`);
}

async function readIndex(staging: string, manifest: Manifest): Promise<FileEntry[]> {
  const text = await readFile(path.join(staging, manifest.files.index.path), 'utf8');
  const files = text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as FileEntry);
  if (files.length !== manifest.files.count) throw new RestoreError(`the archive is damaged: ${files.length} file(s) indexed, the manifest says ${manifest.files.count}.`);
  for (const entry of files) {
    const actual = await sha256File(path.join(staging, entry.path)).catch(() => null);
    if (actual !== entry.sha256) throw new RestoreError(`the archive is damaged: file ${entry.key} ${actual ? 'does not match its SHA-256' : 'is missing'}.`);
  }
  return files;
}

async function assertEmpty(database: Database, storage: ObjectStorage) {
  const filled: string[] = [];
  for (const { name } of await listTables(database.db)) {
    const { rows } = (await database.db.execute(sql.raw(`SELECT count(*)::int AS n FROM public.${quoteIdent(name)}`))) as unknown as Rows;
    if (Number(rows[0]?.n) > 0) filled.push(`${name}: ${rows[0]?.n}`);
  }
  if (filled.length) {
    throw new RestoreError(
      `the target database is not empty (${filled.slice(0, 5).join(', ')}${filled.length > 5 ? ', …' : ''} row(s)): restore only into a new, empty instance (a new PGLITE_DIR or an empty PostgreSQL database).`,
    );
  }
  if (!storage.list) throw new RestoreError(`the ${storage.kind} store cannot list its objects: its emptiness cannot be checked.`);
  for await (const key of storage.list()) {
    throw new RestoreError(`the file store is not empty (it holds ${key}, …): restore into an empty STORAGE_DIR or bucket.`);
  }
}

/**
 * Loads every table in the caller's transaction.
 * Table ownership (db/schema/ownership.ts): this inserts into every table, the one write of the composition to
 * tables it does not own. It is declared here and in docs/architecture.md rather than seen by `check:tables`, whose
 * patterns do not match an INSERT built over a list of table names: a restore reloads rows that their owners
 * wrote, as they wrote them, into an empty instance; it changes no row of a running one.
 */
async function loadRows(tx: Tx, staging: string, manifest: Manifest, log: (line: string) => void): Promise<number> {
  try {
    await tx.execute(sql.raw('SET LOCAL session_replication_role = replica'));
  } catch (err) {
    throw new RestoreError(
      `the database role may not set session_replication_role (${(err as { cause?: Error }).cause?.message ?? (err as Error).message}): run the restore as a superuser, or GRANT SET ON PARAMETER session_replication_role TO the role (PostgreSQL 15+).`,
    );
  }
  await tx.execute(sql.raw(`SET LOCAL TimeZone = 'UTC'`));
  const present = new Set((await listTables(tx)).map((t) => t.name));
  let total = 0;
  for (const table of manifest.tables) {
    if (EXCLUDED_TABLES.has(table.name)) continue;
    if (!present.has(table.name)) throw new RestoreError(`table ${table.name} of the backup does not exist in the target at the backup's migration level.`);
    const columns = table.columns.map(quoteIdent).join(', ');
    const insert = `INSERT INTO public.${quoteIdent(table.name)} (${columns}) SELECT ${columns} FROM json_populate_recordset(null::public.${quoteIdent(table.name)}, `;
    let batch: string[] = [];
    let bytes = 0;
    let rows = 0;
    const flush = async () => {
      if (!batch.length) return;
      await tx.execute(sql`${sql.raw(insert)}${`[${batch.join(',')}]`}::json)`);
      rows += batch.length;
      batch = [];
      bytes = 0;
    };
    const lines = createInterface({ input: createReadStream(path.join(staging, table.path), 'utf8'), crlfDelay: Number.POSITIVE_INFINITY });
    for await (const line of lines) {
      if (!line) continue;
      batch.push(line);
      bytes += line.length;
      if (batch.length >= BATCH_ROWS || bytes >= BATCH_BYTES) await flush();
    }
    await flush();
    const { rows: counted } = (await tx.execute(sql.raw(`SELECT count(*)::int AS n FROM public.${quoteIdent(table.name)}`))) as unknown as Rows;
    if (Number(counted[0]?.n) !== table.rows || rows !== table.rows) {
      throw new RestoreError(`table ${table.name}: ${counted[0]?.n} row(s) after loading, the backup says ${table.rows}; nothing was restored.`);
    }
    total += rows;
    log(`db: ${table.name} ${rows} row(s) restored`);
  }
  // Sequences owned by a column (none today: ids are UUIDs) continue after the restored rows.
  const { rows: sequences } = (await tx.execute(
    sql.raw(`SELECT s.relname AS seq, t.relname AS tbl, a.attname AS col
      FROM pg_class s JOIN pg_namespace n ON n.oid = s.relnamespace
      JOIN pg_depend d ON d.objid = s.oid AND d.deptype IN ('a', 'i')
      JOIN pg_class t ON t.oid = d.refobjid JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = d.refobjsubid
      WHERE s.relkind = 'S' AND n.nspname = 'public'`),
  )) as unknown as Rows;
  for (const s of sequences) {
    const seq = `public.${quoteIdent(String(s.seq))}`;
    await tx.execute(
      sql.raw(`SELECT setval('${seq.replaceAll("'", "''")}', coalesce((SELECT max(${quoteIdent(String(s.col))}) FROM public.${quoteIdent(String(s.tbl))}), 0) + 1, false)`),
    );
  }
  return total;
}
