import type { z } from 'zod';
import { ApiError, fieldErrors } from '@/lib/platform/errors';
import { frenchFieldLine } from '@/lib/platform/i18n';
import type { ListSort, Page } from '@/lib/platform/http';

/**
 * The data side of the back-office list pages (contacts, documents, products): filters read from the URL, the page
 * loaded through the same list function and query schema as the API. Filters live in the URL so that a filtered
 * list can be bookmarked and shared. The chips and the pager are in list-page.tsx.
 */
export type ListFilters<K extends string> = Partial<Record<K, string>>;
export type UrlFilters = Readonly<Record<string, string | undefined>>;

/** The filters named in `keys` from the page's search params. A field left blank arrives as "q=": it is no filter. */
export function readListFilters<const K extends string>(raw: Record<string, string | string[] | undefined>, keys: readonly K[]): ListFilters<K> {
  const filters: ListFilters<K> = {};
  for (const k of keys) {
    const value = raw[k];
    if (typeof value === 'string' && value.trim() !== '') filters[k] = value.trim();
  }
  return filters;
}

/**
 * The sort of a list from its URL (`?sort=number&dir=desc`): one of the list's sortable columns, ascending unless
 * `dir=desc`; anything else is no sort (the list's default order, newest first).
 */
export function readListSort<const K extends string>(raw: Record<string, string | string[] | undefined>, keys: readonly K[]): ListSort<K> | undefined {
  const key = keys.find((k) => k === raw.sort);
  return key ? { key, dir: raw.dir === 'desc' ? 'desc' : 'asc' } : undefined;
}

/** The list URL with some filters changed (undefined removes one); a changed filter always restarts at the first page. */
export function listHref(base: string, current: UrlFilters, changes: UrlFilters): string {
  const next: UrlFilters = { ...current, cursor: undefined, ...changes };
  const params = new URLSearchParams(Object.entries(next).filter((e): e is [string, string] => Boolean(e[1])));
  return params.size ? `${base}?${params}` : base;
}

/**
 * Parses the filters with the API's query schema and loads one page. A bad filter or a stale cursor is not an error
 * page: the list shows empty with `problem` saying why, and the filter form stays usable.
 */
export async function loadListPage<S extends z.ZodType, T>(
  schema: S,
  filters: Record<string, string | undefined>,
  load: (query: z.output<S>) => Promise<Page<T>>,
): Promise<{ page: Page<T>; query: z.output<S> | null; problem: string | null }> {
  const empty: Page<T> = { data: [], meta: { next_cursor: null } };
  const parsed = schema.safeParse(filters);
  if (!parsed.success) {
    const problem = Object.entries(fieldErrors(parsed.error))
      .map(([field, message]) => frenchFieldLine(field, message))
      .join(' · ');
    return { page: empty, query: null, problem };
  }
  try {
    return { page: await load(parsed.data), query: parsed.data, problem: null };
  } catch (err) {
    if (!(err instanceof ApiError && err.code === 'invalid_cursor')) throw err;
    return { page: empty, query: parsed.data, problem: 'Ce lien de pagination n’est plus valable : reprenez à la première page.' };
  }
}

