import { getServerSession } from 'next-auth';
import { redirect } from 'next/navigation';
import { type Db, getDb } from '@/db/client';
import { authOptions } from './session';
import { getMembership, listUserOrgs, type Role } from '@/lib/platform/orgs';

/** What the staff session cookie carries (the session callback of lib/platform/next/session.ts). */
export type StaffSession = { userId?: string; orgId?: string | null; user?: { email?: string | null; name?: string | null } } | null;

/** The session of the request being served, read from its cookie by next-auth. */
export const requestSession = async (): Promise<StaffSession> => (await getServerSession(authOptions())) as StaffSession;

/** A staff member acting in their active org: what a server action works with. */
export interface StaffContext {
  db: Db;
  userId: string;
  orgId: string;
  role: Role;
}

/**
 * The staff member of a session in their active org, re-checked against memberships (a removed member loses
 * access at once). Not signed in → /login; member of no org, or no longer of the session's → /no-org.
 */
export async function resolveStaffOrg(session: StaffSession): Promise<StaffContext> {
  if (!session?.userId) redirect('/login');
  const db = await getDb();
  const membership = session.orgId ? await getMembership(db, session.orgId, session.userId) : null;
  if (!membership) redirect('/no-org');
  return { db, userId: session.userId, orgId: membership.org_id, role: membership.role };
}

/**
 * The signed-in staff member for a back-office page, with the active org re-checked against memberships. Not
 * signed in → /login. Member of no org → null org (the page says so).
 */
export async function requireStaff() {
  const session = await requestSession();
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

/** For pages that need an org: throws the back-office to the no-org notice otherwise. */
export async function requireStaffOrg() {
  const staff = await requireStaff();
  if (!staff.orgId) redirect('/no-org');
  return { ...staff, orgId: staff.orgId };
}
