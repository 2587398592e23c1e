import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase, writePgliteTemplate } from '@/db/client';
import { prepareQueues } from '@/lib/jobs';
import { jobs } from '@/lib/modules';

/**
 * Before the workers start. PostgreSQL: migrate the test database once and create the job queues, so they do not race
 * to. PGlite: do the same on one in-memory database and save it as the template every test file's database starts
 * from (PGLITE_TEMPLATE), which the forked workers inherit.
 */
export default async function setup() {
  if (process.env.DATABASE_URL) {
    const database = await openDatabase();
    await prepareQueues(database, jobs);
    await database.close();
    return;
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'paraphe-test-template-'));
  const file = path.join(dir, 'pglite.tar');
  await writePgliteTemplate(file, (database) => prepareQueues(database, jobs));
  process.env.PGLITE_TEMPLATE = file;
  return () => rmSync(dir, { recursive: true, force: true });
}
