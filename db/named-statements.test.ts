import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NamedStatementClient } from './named-statements';

// The pool's client class on PostgreSQL (db/client.ts); PGlite runs no pool.
describe.skipIf(!process.env.DATABASE_URL)('NamedStatementClient (PostgreSQL)', () => {
  let client: NamedStatementClient;
  const prepared = async () =>
    (await client.query('SELECT name, statement FROM pg_prepared_statements ORDER BY prepare_time')).rows as Array<{ name: string; statement: string }>;

  beforeAll(async () => {
    client = new NamedStatementClient({ connectionString: process.env.DATABASE_URL });
    await client.connect();
  });
  afterAll(() => client.end());

  it('prepares a statement with parameters once on its connection, and answers each execution', async () => {
    const text = 'SELECT $1::int + 1 AS n';
    expect((await client.query(text, [1])).rows).toEqual([{ n: 2 }]);
    expect((await client.query({ text, values: [41] })).rows).toEqual([{ n: 42 }]);
    expect((await client.query({ text, values: [9], rowMode: 'array' })).rows).toEqual([[10]]);
    const mine = (await prepared()).filter((p) => p.statement === text);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.name).toMatch(/^p_[\w-]{27}$/);
  });

  it('leaves statements without parameters and statements already named as they are', async () => {
    await client.query('SELECT 1 AS one');
    await client.query({ name: 'chosen_name', text: 'SELECT $1::text AS t', values: ['x'] });
    const all = await prepared();
    expect(all.some((p) => p.statement === 'SELECT 1 AS one')).toBe(false);
    expect(all.filter((p) => p.statement === 'SELECT $1::text AS t').map((p) => p.name)).toEqual(['chosen_name']);
  });

  it('keeps at most 500 texts prepared per connection; past that, statements still answer, unprepared', async () => {
    const before = (await prepared()).length;
    for (let i = 0; i < 520; i++) expect((await client.query(`SELECT $1::int + ${i} AS n`, [1])).rows[0].n).toBe(i + 1);
    const ours = (await prepared()).filter((p) => p.name.startsWith('p_'));
    expect(ours).toHaveLength(500);
    expect((await prepared()).length).toBe(before + 500 - 1);
  });
});
