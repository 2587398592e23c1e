import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { DatabaseLockedError, openDatabase } from './client';

const dir = mkdtempSync(path.join(tmpdir(), 'paraphe-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('refuses to open an embedded database another holder has open, and frees it on close', async () => {
  const env = { PGLITE_DIR: path.join(dir, 'pglite') } as unknown as NodeJS.ProcessEnv;
  const first = await openDatabase(env);
  await expect(openDatabase(env)).rejects.toBeInstanceOf(DatabaseLockedError);
  await expect(openDatabase(env)).rejects.toThrow(/in use by another process/);
  await first.sql('CREATE TABLE kept (v int)');
  await first.sql('INSERT INTO kept VALUES (42)');
  await first.close();

  const second = await openDatabase(env);
  expect((await second.sql('SELECT v FROM kept')).rows).toEqual([{ v: 42 }]);
  await second.close();
});
