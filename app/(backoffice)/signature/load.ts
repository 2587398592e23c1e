import { asc, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { memberships, users } from '@/db/schema';
import { getEnvelope } from '@/lib/domain/signature';
import { readsOnly } from '@/lib/platform/orgs';
import { loadOr404, type Staff } from '../load';

export { contactChoice } from '../load';

/** The org's envelope for a page, or Next's 404 page (unknown, malformed or another org's id alike). */
export const loadEnvelopeOr404 = (staff: Staff, id: string) => loadOr404(id, (i) => getEnvelope(staff.db, staff.orgId, i));


/**
 * The org's members (name and e-mail, and whether they can approve: not the read-only role), for the approvers' select and names. A read of two tables the back-office needs
 * and no module offers (lib/orgs has no member list yet).
 */
export async function orgMembers(db: Db, orgId: string): Promise<Array<{ id: string; name: string; canApprove: boolean }>> {
  const rows = await db
    .select({ id: users.id, email: users.email, name: users.name, role: memberships.role })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.user_id))
    .where(eq(memberships.org_id, orgId))
    .orderBy(asc(users.email));
  return rows.map((r) => ({ id: r.id, name: r.name ? `${r.name} <${r.email}>` : r.email, canApprove: !readsOnly(r.role) }));
}
