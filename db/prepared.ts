import type { Db } from './client';

/**
 * A hot read as a named prepared statement, built once per database handle: Drizzle does not rebuild its SQL on
 * every call, and on PostgreSQL each pooled connection plans it once. `build` returns `query.prepare(name)`.
 */
export function preparedStatement<T>(build: (db: Db) => T): (db: Db) => T {
  const byDb = new WeakMap<Db, T>();
  return (db) => {
    let statement = byDb.get(db);
    if (!statement) {
      statement = build(db);
      byDb.set(db, statement);
    }
    return statement;
  };
}
