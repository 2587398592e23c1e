import { createHmac, timingSafeEqual } from 'node:crypto';
import { lt, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { authSecret } from '@/lib/config';
import { ApiError } from '@/lib/errors';

/**
 * Keyset pagination over UUIDv7 ids, newest first. The cursor is the last id of a page with an HMAC, so it
 * is opaque and a forged one is refused (422 invalid_cursor) instead of silently skipping rows. Rows inserted
 * while a client pages get larger ids and never shift the pages it has not read yet.
 */
export const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.string().min(1).optional(),
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
