import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { MIGRATIONS_DIR } from '@/db/client';

/**
 * The backup archive (docs/operations.md « Backups »): a gzipped tar of
 *   manifest.json            what follows, with the SHA-256 of every part
 *   db/<table>.jsonl         one row a line, `row_to_json` of the table's stored (non-generated) columns
 *   files.jsonl              one stored object a line: key, size, sha256, content_type, path in the archive
 *   files/<key>              the object's bytes
 * The same logical format for PGlite and PostgreSQL, so a backup of one restores into the other.
 */
export const BACKUP_FORMAT = 'paraphe.backup';
export const BACKUP_VERSION = 1;

/**
 * Tables left out: `rate_limits` is the throttles' transient store (UNLOGGED, rebuilt by traffic). pg-boss's schema
 * (`pgboss.*`) is not backed up either: it is the queue's own, created by pg-boss at start; the manifest records
 * how many jobs were queued and the backup warns when some were.
 */
export const EXCLUDED_TABLES = new Set(['rate_limits']);

export interface TablePart {
  name: string;
  rows: number;
  /** The columns written, in table order (generated columns are recomputed by the target). */
  columns: string[];
  path: string;
  sha256: string;
}

export interface FileEntry {
  key: string;
  size: number;
  sha256: string;
  content_type: string;
  path: string;
}

export interface Manifest {
  format: typeof BACKUP_FORMAT;
  version: typeof BACKUP_VERSION;
  engine: 'pglite' | 'postgres';
  created_at: string;
  app_version: string;
  /** The migration level of the database: drizzle's journal `when` of the last applied migration, and its tag. */
  migrations: { applied: number; last_tag: string | null; last_created_at: string | null };
  tables: TablePart[];
  files: { count: number; bytes: number; index: { path: string; sha256: string } };
  excluded: { tables: string[]; pgboss: { kept: false; jobs_by_state: Record<string, number> } };
}

export const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

interface JournalEntry {
  idx: number;
  when: number;
  tag: string;
}

export async function readJournal(folder = MIGRATIONS_DIR): Promise<{ raw: Record<string, unknown>; entries: JournalEntry[] }> {
  const raw = JSON.parse(await readFile(path.join(folder, 'meta/_journal.json'), 'utf8')) as Record<string, unknown> & { entries: JournalEntry[] };
  return { raw, entries: raw.entries };
}

export const tagOf = (entries: JournalEntry[], createdAt: string | null) => entries.find((e) => String(e.when) === createdAt)?.tag ?? null;

/**
 * A migrations folder holding the first `count` migrations of db/migrations (drizzle's migrator applies what its
 * journal lists): restore migrates the target to its backup's level, loads the rows, then applies the rest.
 */
export async function migrationsUpTo(count: number, dir: string): Promise<string> {
  const { raw, entries } = await readJournal();
  await mkdir(path.join(dir, 'meta'), { recursive: true });
  const kept = entries.slice(0, count);
  for (const entry of kept) await copyFile(path.join(MIGRATIONS_DIR, `${entry.tag}.sql`), path.join(dir, `${entry.tag}.sql`));
  await writeFile(path.join(dir, 'meta/_journal.json'), JSON.stringify({ ...raw, entries: kept }, null, 2));
  return dir;
}
