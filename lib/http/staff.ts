import { getServerSession } from 'next-auth';
import { redirect } from 'next/navigation';
import { getDb } from '@/db/client';
import { authOptions } from '@/lib/auth/session';
import { getMembership, listUserOrgs } from '@/lib/orgs/orgs';

/**
 * The signed-in staff member for a back-office page or server action, with the active org re-checked
 * against memberships. Not signed in → /login. Member of no org → null org (the page says so).
 */
export async function requireStaff() {
  const session = (await getServerSession(authOptions())) as { userId?: string; orgId?: string | null; user?: { email?: string | null; name?: string | null } } | null;
  if (!session?.userId) redirect('/login');
  const db = await getDb();
  const orgs = await listUserOrgs(db, session.userId);
  const membership = session.orgId ? await getMembership(db, session.orgId, session.userId) : null;
  return {
    db,
    userId: session.userId,
    email: session.user?.email ?? '',
    name: session.user?.name ?? null,
    orgs,
    orgId: membership ? membership.org_id : null,
    role: membership?.role ?? null,
  };
}

/** For pages and actions that need an org: throws the back-office to the no-org notice otherwise. */
export async function requireStaffOrg() {
  const staff = await requireStaff();
  if (!staff.orgId) redirect('/no-org');
  return { ...staff, orgId: staff.orgId };
}
