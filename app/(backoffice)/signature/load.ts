import { asc, eq } from 'drizzle-orm';
import { notFound } from 'next/navigation';
import { z } from 'zod';
import type { Db } from '@/db/client';
import { memberships, users } from '@/db/schema';
import { getContact } from '@/lib/contacts';
import { ApiError } from '@/lib/errors';
import { getEnvelope } from '@/lib/signature';

/** The org's envelope for a page, or Next's 404 page (unknown, malformed or another org's id alike). */
export async function loadEnvelopeOr404(staff: { db: Db; orgId: string }, id: string) {
  if (!z.uuid().safeParse(id).success) notFound();
  try {
    return await getEnvelope(staff.db, staff.orgId, id);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) notFound();
    throw err;
  }
}

/** A contact's name for a filter or a page: "Contact effacé" once erased, null when it is not the org's. */
export async function contactChoice(staff: { db: Db; orgId: string }, id: string): Promise<{ id: string; name: string } | null> {
  try {
    const c = await getContact(staff.db, staff.orgId, id);
    return { id: c.id, name: c.display_name ?? 'Contact effacé' };
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}

/**
 * The org's members (name and e-mail), for the approvers' select and names. A read of two tables the back-office needs
 * and no module offers (lib/orgs has no member list yet).
 */
export async function orgMembers(db: Db, orgId: string): Promise<Array<{ id: string; name: string }>> {
  const rows = await db
    .select({ id: users.id, email: users.email, name: users.name })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.user_id))
    .where(eq(memberships.org_id, orgId))
    .orderBy(asc(users.email));
  return rows.map((r) => ({ id: r.id, name: r.name ? `${r.name} <${r.email}>` : r.email }));
}
