import { and, desc, eq, exists, isNotNull, isNull, ne, or, type SQL, sql } from 'drizzle-orm';
import { type AnyPgColumn, alias } from 'drizzle-orm/pg-core';
import type { Db } from '@/db/client';
import { contacts } from '@/db/schema';
import { decodeCursor, encodeCursor, type Page, type PageQuery } from '@/lib/platform/http';
import { type ContactRow, toPublicContact } from './contacts';
import type { Contact, DuplicateReason } from './schemas';

export interface DuplicateGroup {
  reasons: DuplicateReason[];
  contacts: Contact[];
}

/** Postal codes compare without spaces or case ("75 002" is "75002"). */
const postalKey = (column: AnyPgColumn) => sql`upper(replace(${column}, ' ', ''))`;

const KEYS: Array<{ reason: DuplicateReason; of: (r: ContactRow) => string | null }> = [
  { reason: 'email', of: (r) => r.email },
  { reason: 'siret', of: (r) => r.siret },
  { reason: 'name_postal_code', of: (r) => (r.name_key && r.postal_code ? `${r.name_key}|${r.postal_code.replaceAll(' ', '').toUpperCase()}` : null) },
];

/**
 * Groups of live contacts that probably are one person or business: same e-mail, same SIRET, or same
 * normalized name (case, accents and punctuation ignored) with the same postal code. Contacts linked by
 * any rule end up in one group (connected components), so each contact appears once and one merge settles
 * a group. Groups come newest first (by their newest contact), cursor-paginated on that contact's id.
 */
export async function findDuplicates(db: Db, orgId: string, query: PageQuery): Promise<Page<DuplicateGroup>> {
  const other = alias(contacts, 'other');
  const sameAs = (cond: SQL) =>
    exists(
      db
        .select({ one: sql`1` })
        .from(other)
        .where(and(eq(other.org_id, contacts.org_id), isNull(other.deleted_at), ne(other.id, contacts.id), cond)),
    );
  const rows = await db
    .select()
    .from(contacts)
    .where(
      and(
        eq(contacts.org_id, orgId),
        isNull(contacts.deleted_at),
        or(
          and(isNotNull(contacts.email), sameAs(eq(other.email, contacts.email))),
          and(isNotNull(contacts.siret), sameAs(eq(other.siret, contacts.siret))),
          and(
            isNotNull(contacts.name_key),
            isNotNull(contacts.postal_code),
            sameAs(and(eq(other.name_key, contacts.name_key), sql`${postalKey(other.postal_code)} = ${postalKey(contacts.postal_code)}`)!),
          ),
        ),
      ),
    )
    .orderBy(desc(contacts.id));

  // Union-find over the candidates: rows sharing any key join one group.
  const parent = new Map<string, string>(rows.map((r) => [r.id, r.id]));
  const find = (id: string): string => {
    let root = id;
    while (parent.get(root) !== root) root = parent.get(root)!;
    parent.set(id, root);
    return root;
  };
  const reasonsOf = new Map<string, Set<DuplicateReason>>();
  for (const { reason, of } of KEYS) {
    const firstWith = new Map<string, string>();
    for (const row of rows) {
      const key = of(row);
      if (!key) continue;
      const first = firstWith.get(key);
      if (!first) {
        firstWith.set(key, row.id);
        continue;
      }
      const [root, child] = [find(first), find(row.id)];
      const reasons = new Set([...(reasonsOf.get(root) ?? []), ...(reasonsOf.get(child) ?? []), reason]);
      parent.set(child, root);
      reasonsOf.set(root, reasons);
    }
  }

  // Rows come newest first, so a group's first row is its newest contact: the group's place in the list.
  const groups = new Map<string, { anchor: string; rows: ContactRow[] }>();
  for (const row of rows) {
    const root = find(row.id);
    const group = groups.get(root) ?? { anchor: row.id, rows: [] };
    group.rows.push(row);
    groups.set(root, group);
  }
  const after = query.cursor ? decodeCursor(query.cursor) : null;
  const ordered = [...groups.entries()]
    .filter(([, g]) => g.rows.length > 1 && (!after || g.anchor < after))
    .sort(([, a], [, b]) => (a.anchor < b.anchor ? 1 : -1));
  const page = ordered.slice(0, query.limit);
  const last = page.at(-1);
  return {
    data: page.map(([root, g]) => ({
      reasons: [...(reasonsOf.get(root) ?? [])].sort((x, y) => KEYS.findIndex((k) => k.reason === x) - KEYS.findIndex((k) => k.reason === y)),
      contacts: g.rows.map(toPublicContact),
    })),
    meta: { next_cursor: ordered.length > query.limit && last ? encodeCursor(last[1].anchor) : null },
  };
}
