import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase, writePgliteTemplate } from '@/db/client';
import { prepareQueues } from '@/lib/platform/jobs';
import { jobs } from '@/lib/composition/modules';
import type { TestProject } from 'vitest/node';
import { maintenanceUrl, workerDatabaseName } from './worker-database';

/**
 * Before the workers start. PostgreSQL: migrate the test database once and create the job queues, so they do not race
 * to. PGlite: do the same on one in-memory database and save it as the template every test file's database starts
 * from (PGLITE_TEMPLATE), which the forked workers inherit. PostgreSQL workers then each take a copy of the migrated
 * database (lib/testing/worker-database.ts), made with CREATE DATABASE … TEMPLATE.
 */
export default async function setup(project: TestProject) {
  if (process.env.DATABASE_URL) {
    const database = await openDatabase();
    await prepareQueues(database, jobs);
    await database.close();
    return copyPerWorker(process.env.DATABASE_URL, project.config.maxWorkers);
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'paraphe-test-template-'));
  const file = path.join(dir, 'pglite.tar');
  await writePgliteTemplate(file, (database) => prepareQueues(database, jobs));
  process.env.PGLITE_TEMPLATE = file;
  return () => rmSync(dir, { recursive: true, force: true });
}

async function copyPerWorker(baseUrl: string, workers: number) {
  const { Client } = await import('pg');
  const admin = new Client({ connectionString: maintenanceUrl(baseUrl) });
  await admin.connect();
  const base = new URL(baseUrl).pathname.slice(1);
  const names = Array.from({ length: workers }, (_, i) => workerDatabaseName(baseUrl, i + 1));
  for (const name of names) {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${base}"`);
  }
  await admin.end();
  return async () => {
    const client = new Client({ connectionString: maintenanceUrl(baseUrl) });
    await client.connect();
    for (const name of names) await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.end();
  };
}
