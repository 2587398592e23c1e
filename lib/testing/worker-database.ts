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

/** Runs `run` on a connection to the maintenance database (a test that makes a database of its own, then drops it). */
export async function onMaintenanceDatabase<T>(baseUrl: string, run: (client: import('pg').Client) => Promise<T>): Promise<T> {
  const { Client } = await import('pg');
  const client = new Client({ connectionString: maintenanceUrl(baseUrl) });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/**
 * A database of a test file's own, a copy of the migrated test database (`baseUrl`'s); returns its URL. PostgreSQL
 * refuses a copy while another session is on the template (another file making its own at that moment): retried.
 */
export async function createDatabaseFromTemplate(baseUrl: string, name: string): Promise<string> {
  const template = new URL(baseUrl).pathname.slice(1);
  for (let attempt = 1; ; attempt++) {
    try {
      await onMaintenanceDatabase(baseUrl, (c) => c.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`));
      break;
    } catch (error) {
      if ((error as { code?: string }).code !== '55006' || attempt >= 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
