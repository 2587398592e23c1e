import { getTableColumns, type Query } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db, Tx } from './client';

/**
 * A hot read as a named prepared statement, built once per database handle: Drizzle does not rebuild its SQL on
 * every call, and on PostgreSQL each pooled connection plans it once. `build` returns `query.prepare(name)`.
 * Bound to the handle it was built on (the pool): for a read that also runs in transactions, see rowsQuery.
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

/**
 * A select of whole rows of `table` whose SQL Drizzle builds once per process, run on whichever handle it is given:
 * the pool or a transaction (a lock it takes is the transaction's). Drizzle otherwise builds a statement's text at
 * every call, column by column: 0.1–0.2 ms of CPU for a table as wide as documents, more than PostgreSQL spends
 * running it by key (docs/foundation.md, "Data layer"). `build` writes `db.select().from(table)…` with
 * `sql.placeholder(name)` for each value; the call passes the values by name. Rows come back mapped as Drizzle maps
 * them (the table's columns, in order, through their own decoders).
 */
export function rowsQuery<T extends PgTable, V extends Record<string, unknown>>(
  table: T,
  build: (db: Db) => { toSQL(): Query },
): (conn: Db | Tx, values: V) => Promise<T['$inferSelect'][]> {
  return selectionQuery<T['$inferSelect'], V>(getTableColumns(table), build);
}

/**
 * rowsQuery for a select of `selection` (`db.select(selection)…`, joins included): columns and `sql` expressions
 * (decoded by their `mapWith`), keyed as the rows come back. `build` must select exactly `selection`, in its order.
 */
export function selectionQuery<R, V extends Record<string, unknown>>(
  selection: Record<string, unknown>,
  build: (db: Db) => { toSQL(): Query },
): (conn: Db | Tx, values: V) => Promise<R[]> {
  const fields = Object.entries(selection).map(([key, field]) => ({ path: [key], field }));
  let query: Query | undefined;
  return (conn, values) => {
    query ??= build(conn as Db).toSQL();
    return conn._.session.prepareQuery(query, fields as never, undefined, true).execute(values) as Promise<R[]>;
  };
}
