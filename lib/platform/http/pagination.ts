import { createHmac, timingSafeEqual } from 'node:crypto';
import { lt, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { authSecret } from '@/lib/platform/config';
import { ApiError } from '@/lib/platform/errors';

/**
 * Keyset pagination over UUIDv7 ids, newest first. The cursor is the last id of a page with an HMAC, so it
 * is opaque and a forged one is refused (422 invalid_cursor) instead of silently skipping rows. Rows inserted
 * while a client pages get larger ids and never shift the pages it has not read yet.
 */
export const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50).meta({ description: 'Items per page, 1 to 100; 50 when omitted.' }),
  cursor: z.string().min(1).optional().meta({ description: 'The `meta.next_cursor` of the previous page; omit it for the first page.' }),
});
export type PageQuery = z.infer<typeof PageQuery>;

export interface Page<T> {
  data: T[];
  meta: { next_cursor: string | null };
}

const mac = (id: string) => createHmac('sha256', authSecret()).update(`cursor:${id}`).digest().subarray(0, 12);

export function encodeCursor(id: string): string {
  return Buffer.concat([Buffer.from(id.replaceAll('-', ''), 'hex'), mac(id)]).toString('base64url');
}

export function decodeCursor(cursor: string): string {
  const raw = Buffer.from(cursor, 'base64url');
  if (raw.length === 28) {
    const hex = raw.subarray(0, 16).toString('hex');
    const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    if (timingSafeEqual(raw.subarray(16), mac(id))) return id;
  }
  throw new ApiError(422, 'invalid_cursor', 'The cursor is not one this API issued.', 'cursor');
}

/** The WHERE condition for the rows after `cursor` (undefined on the first page). */
export function afterCursor(idColumn: PgColumn, cursor: string | undefined): SQL | undefined {
  return cursor ? lt(idColumn, decodeCursor(cursor)) : undefined;
}

/** Builds a page from rows fetched with `limit + 1` (the extra row only tells that a next page exists). */
export function toPage<Row extends { id: string }, T>(rows: Row[], limit: number, map: (row: Row) => T): Page<T> {
  const hasMore = rows.length > limit;
  const pageRows = hasMore ? rows.slice(0, limit) : rows;
  const last = pageRows.at(-1);
  return { data: pageRows.map(map), meta: { next_cursor: hasMore && last ? encodeCursor(last.id) : null } };
}

/*
 * Sorted keyset pagination, for the back-office's sortable columns (the API lists newest first only). The order is
 * (sort expression, id), both in the chosen direction, so ties are broken by id and no row is lost or repeated from
 * page to page. The cursor carries the last row's sort value and id, and names the sort it was issued for: a cursor
 * of another sort, or forged, is refused like any other (422 invalid_cursor).
 */
export type SortDir = 'asc' | 'desc';

export interface ListSort<K extends string = string> {
  key: K;
  dir: SortDir;
}

/** A sortable column: a SQL expression that is never null (coalesce it), and the type its cursor value is read back as. */
export interface SortKey {
  expr: SQL;
  type: 'text' | 'bigint' | 'date';
}

const sortedMac = (payload: string) => createHmac('sha256', authSecret()).update(`sorted-cursor:${payload}`).digest().subarray(0, 12);

export function encodeSortedCursor(sort: ListSort, value: string, id: string): string {
  const payload = JSON.stringify([sort.key, sort.dir, value, id]);
  return `${Buffer.from(payload).toString('base64url')}.${sortedMac(payload).toString('base64url')}`;
}

export function decodeSortedCursor(sort: ListSort, cursor: string): { value: string; id: string } {
  const [body = '', tag = ''] = cursor.split('.');
  const payload = Buffer.from(body, 'base64url').toString();
  const given = Buffer.from(tag, 'base64url');
  const expected = sortedMac(payload);
  if (given.length === expected.length && timingSafeEqual(given, expected)) {
    // Signed by us, so it is our JSON.
    const parsed: unknown = JSON.parse(payload);
    if (Array.isArray(parsed) && parsed[0] === sort.key && parsed[1] === sort.dir && typeof parsed[2] === 'string' && typeof parsed[3] === 'string') {
      return { value: parsed[2], id: parsed[3] };
    }
  }
  throw new ApiError(422, 'invalid_cursor', 'The cursor is not one this API issued for this sort.', 'cursor');
}

/**
 * What a sorted query needs: the sort value to select (as text, for the next cursor), the condition for the rows
 * after `cursor`, and the ORDER BY. A row comparison keeps it one condition the planner reads as a range.
 */
export function sortedKeyset(key: SortKey, idColumn: PgColumn, sort: ListSort, cursor: string | undefined) {
  const after = cursor ? decodeSortedCursor(sort, cursor) : null;
  const op = sql.raw(sort.dir === 'asc' ? '>' : '<');
  const dir = sql.raw(sort.dir);
  return {
    value: sql<string>`(${key.expr})::text`,
    where: after ? sql`(${key.expr}, ${idColumn}) ${op} (cast(${after.value} as ${sql.raw(key.type)}), cast(${after.id} as uuid))` : undefined,
    orderBy: [sql`${key.expr} ${dir}`, sql`${idColumn} ${dir}`],
  };
}

/** toPage for a sorted query: rows carry `sort_value` (sortedKeyset's `value`), the next cursor is built from the last. */
export function toSortedPage<Row extends { id: string; sort_value: string }, T>(rows: Row[], limit: number, sort: ListSort, map: (row: Row) => T): Page<T> {
  const hasMore = rows.length > limit;
  const pageRows = hasMore ? rows.slice(0, limit) : rows;
  const last = pageRows.at(-1);
  return { data: pageRows.map(map), meta: { next_cursor: hasMore && last ? encodeSortedCursor(sort, last.sort_value, last.id) : null } };
}
