import { type Database, DatabaseLockedError, getDatabase, type OpenOptions, openDatabase } from '@/db/client';
import type { CliExtension } from '@/lib/composition/cli/program';
import { getStorage, type ObjectStorage } from '@/lib/platform/storage';
import { createBackup } from './backup';
import { RestoreError, restoreBackup } from './restore';

export interface BackupCliOptions {
  /** The database to back up (default: the process's, from the environment). */
  database?: () => Promise<Database>;
  /** Opens the restore target (default: the environment's database, PGLITE_DIR or DATABASE_URL). */
  openTarget?: (options: OpenOptions) => Promise<Database>;
  storage?: () => ObjectStorage;
}

const lockedHint = (err: unknown) =>
  err instanceof DatabaseLockedError
    ? new Error(
        `${err.message} A backup or a restore of the embedded database needs the app and the worker stopped (PostgreSQL backups run while they serve).`,
      )
    : err;

/**
 * `backup --out FILE` and `restore --from FILE` (docs/operations.md « Backups »). On PGlite both need the app
 * stopped: the data directory is locked by the process that holds it (db/client.ts), and the CLI says so.
 */
export const backupCli =
  (options: BackupCliOptions = {}): CliExtension =>
  (program, io, print) => {
    const storage = options.storage ?? getStorage;
    program
      .command('backup')
      .description('Write a consistent archive (.tar.gz) of the database and every stored file, with a manifest of SHA-256s')
      .requiredOption('--out <file>', 'the archive to write')
      .option('--tmp <dir>', 'where the parts are staged (default: the system temporary directory)')
      .option('--json', 'JSON output')
      .action(async (o) => {
        const database = await (options.database ?? getDatabase)().catch((err) => {
          throw lockedHint(err);
        });
        const result = await createBackup({ database, storage: storage(), out: o.out, tmpDir: o.tmp, log: o.json ? undefined : io.out });
        for (const warning of result.warnings) io.err(`warning: ${warning}`);
        const rows = result.manifest.tables.reduce((n, t) => n + t.rows, 0);
        print(
          o.json,
          { out: result.out, sha256: result.sha256, warnings: result.warnings, manifest: result.manifest },
          `Backup written: ${result.out}\n  ${result.manifest.tables.length} tables, ${rows} rows, ${result.manifest.files.count} files, migration ${result.manifest.migrations.last_tag ?? 'none'}\n  sha256 ${result.sha256}`,
        );
      });

    program
      .command('restore')
      .description('Restore an archive of `backup` into an empty instance, then verify every org\'s hash chain')
      .requiredOption('--from <file>', 'the archive to restore')
      .option('--tmp <dir>', 'where the archive is unpacked (default: the system temporary directory)')
      .option('--json', 'JSON output')
      .action(async (o) => {
        const open = options.openTarget ?? ((opts: OpenOptions) => openDatabase(process.env, opts));
        const result = await restoreBackup({
          from: o.from,
          open: (opts) =>
            open(opts).catch((err) => {
              throw lockedHint(err);
            }),
          storage: storage(),
          tmpDir: o.tmp,
          log: o.json ? undefined : io.out,
        }).catch((err) => {
          throw err instanceof RestoreError ? new Error(`restore refused or failed: ${err.message}`) : err;
        });
        print(
          o.json,
          { rows: result.rows, files: result.files, chains: result.chains, manifest: result.manifest },
          `Restored ${result.rows} rows and ${result.files} files from the backup of ${result.manifest.created_at} (${result.manifest.engine}); ${result.chains.length} org chain(s) verified.`,
        );
      });
  };
