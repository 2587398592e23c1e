import { and, desc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { products } from '@/db/schema';
import { notFound } from '@/lib/platform/errors';
import { afterCursor, type ListSort, type Page, type SortKey, sortedKeyset, toPage, toSortedPage } from '@/lib/platform/http';
import type { Product, ProductCreate, ProductListQuery, ProductPatch } from './schemas';

export type ProductRow = typeof products.$inferSelect;

export function toPublicProduct(row: ProductRow): Product {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    unit: row.unit,
    unit_price_cents: row.unit_price_cents,
    vat_rate: row.vat_rate,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function createProduct(db: Db, orgId: string, input: ProductCreate): Promise<Product> {
  const [row] = await db
    .insert(products)
    .values({
      org_id: orgId,
      name: input.name,
      description: input.description ?? null,
      unit: input.unit ?? null,
      unit_price_cents: input.unit_price_cents,
      vat_rate: input.vat_rate,
    })
    .returning();
  return toPublicProduct(row!);
}

/** The columns the back-office catalogue sorts on (the API lists newest first only). */
export const PRODUCT_SORTS = {
  name: { expr: sql`lower(${products.name})`, type: 'text' },
  price: { expr: sql`${products.unit_price_cents}`, type: 'bigint' },
} satisfies Record<string, SortKey>;
export type ProductSort = ListSort<keyof typeof PRODUCT_SORTS>;

/** Newest first (or by `sort`, for the back-office). */
export async function listProducts(db: Db, orgId: string, query: ProductListQuery, sort?: ProductSort): Promise<Page<Product>> {
  const filter = and(eq(products.org_id, orgId), query.q ? sql`lower(${products.name}) like ${`%${likeEscape(query.q.toLowerCase())}%`}` : undefined);
  if (sort) {
    const keyset = sortedKeyset(PRODUCT_SORTS[sort.key], products.id, sort, query.cursor);
    const rows = await db
      .select({ ...getTableColumns(products), sort_value: keyset.value })
      .from(products)
      .where(and(filter, keyset.where))
      .orderBy(...keyset.orderBy)
      .limit(query.limit + 1);
    return toSortedPage(rows, query.limit, sort, toPublicProduct);
  }
  const rows = await db
    .select()
    .from(products)
    .where(and(filter, afterCursor(products.id, query.cursor)))
    .orderBy(desc(products.id))
    .limit(query.limit + 1);
  return toPage(rows, query.limit, toPublicProduct);
}

export async function getProduct(db: Db, orgId: string, id: string): Promise<Product> {
  const [row] = await db
    .select()
    .from(products)
    .where(and(eq(products.org_id, orgId), eq(products.id, id)));
  if (!row) throw notFound('Product');
  return toPublicProduct(row);
}

/** Omitted key: unchanged; null clears description or unit (the schema refuses null elsewhere). */
export async function updateProduct(db: Db, orgId: string, id: string, patch: ProductPatch): Promise<Product> {
  const changes = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
  if (Object.keys(changes).length === 0) return getProduct(db, orgId, id);
  const [row] = await db
    .update(products)
    .set({ ...changes, updated_at: new Date() })
    .where(and(eq(products.org_id, orgId), eq(products.id, id)))
    .returning();
  if (!row) throw notFound('Product');
  return toPublicProduct(row);
}

/** Lines taken from the product keep their own copy; deleting it changes no document. */
export async function deleteProduct(db: Db, orgId: string, id: string): Promise<void> {
  const [row] = await db
    .delete(products)
    .where(and(eq(products.org_id, orgId), eq(products.id, id)))
    .returning({ id: products.id });
  if (!row) throw notFound('Product');
}
