/**
 * PostgreSQL test runs: every vitest worker gets its own copy of the migrated test database, so test files run two at
 * a time without sharing rows or pg-boss queues (as each PGlite file already has its own database).
 */

/** The database a worker uses: `<base>_w<pool id>` beside the one DATABASE_URL names. */
export function workerDatabaseUrl(baseUrl: string, poolId: number | string): string {
  const url = new URL(baseUrl);
  url.pathname = `/${workerDatabaseName(baseUrl, poolId)}`;
  return url.toString();
}

export function workerDatabaseName(baseUrl: string, poolId: number | string): string {
  return `${new URL(baseUrl).pathname.slice(1)}_w${poolId}`;
}

/** A connection string to the server's maintenance database, to create and drop the copies. */
export function maintenanceUrl(baseUrl: string): string {
  const url = new URL(baseUrl);
  url.pathname = '/postgres';
  return url.toString();
}
