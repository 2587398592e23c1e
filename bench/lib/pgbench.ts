import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import path from 'node:path';

/**
 * The raw-SQL floor of a bench: pgbench running a custom script (bench/pgbench/<name>.sql, its tables from
 * bench/pgbench/<name>-setup.sql) against a database of its own on 127.0.0.1:5432, so that the app's figure can be read
 * as a ratio to what PostgreSQL alone does on the same machine at the same time.
 */
export function pgbenchFloor(name: string) {
  const db = `paraphe_pgbench_${name.replace(/\W/g, '_')}_${process.pid}`;
  const psql = (database: string, args: string[]) =>
    execFileSync('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-d', database, '-q', '-v', 'ON_ERROR_STOP=1', ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  psql('postgres', ['-c', `CREATE DATABASE ${db}`]);
  psql(db, ['-f', path.join('bench/pgbench', `${name}-setup.sql`)]);
  return {
    script: path.join('bench/pgbench', `${name}.sql`),
    /**
     * Runs the script for `seconds` with `clients` connections; transactions per second. Asynchronously: the bench's
     * event loop keeps seeing its idle keep-alive connections closed by the server meanwhile, so none is reused dead.
     */
    async run(clients: number, seconds: number): Promise<{ tps: number; latencyMs: number }> {
      const { stdout: out } = await promisify(execFile)(
        'pgbench',
        ['-h', '127.0.0.1', '-U', 'postgres', '-n', '-M', 'prepared', '-c', String(clients), '-j', '2', '-T', String(seconds), '-f', path.join('bench/pgbench', `${name}.sql`), db],
        { encoding: 'utf8' },
      );
      const tps = Number(/tps = ([\d.]+) \(without initial connection time\)/.exec(out)?.[1]);
      const latencyMs = Number(/latency average = ([\d.]+) ms/.exec(out)?.[1]);
      if (!Number.isFinite(tps) || /failed transactions: [1-9]/.test(out)) throw new Error(`pgbench: ${out}`);
      return { tps, latencyMs };
    },
    drop() {
      psql('postgres', ['-c', `DROP DATABASE IF EXISTS ${db} WITH (FORCE)`]);
    },
  };
}
