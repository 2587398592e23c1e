import { randomUUID } from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { rowsQuery } from '@/db/prepared';
import { memberships, orgs, users } from '@/db/schema';
import { hashSecret, verifySecret } from '@/lib/platform/auth';
import { conflict, notFound } from '@/lib/platform/errors';
import { CreateUserInput, OrgIdentityInput, type Role } from './schemas';

export type Org = typeof orgs.$inferSelect;

export async function createOrg(db: Db, input: OrgIdentityInput): Promise<Org> {
  const [org] = await db.insert(orgs).values(OrgIdentityInput.parse(input)).returning();
  return org!;
}

const orgRow = rowsQuery(orgs, (db) => db.select().from(orgs).where(eq(orgs.id, sql.placeholder('id'))));

export async function getOrg(db: Db, orgId: string): Promise<Org> {
  const [org] = await orgRow(db, { id: orgId });
  if (!org) throw notFound('Organisation');
  return org;
}

/** Replaces the whole identity: a field left out is cleared (the form always sends every field). */
export async function updateOrgIdentity(db: Db, orgId: string, input: OrgIdentityInput): Promise<Org> {
  const data = OrgIdentityInput.parse(input);
  const cleared = Object.fromEntries(Object.keys(OrgIdentityInput.shape).map((k) => [k, null]));
  const [org] = await db
    .update(orgs)
    .set({ ...cleared, ...Object.fromEntries(Object.entries(data).filter(([, v]) => v !== undefined)) })
    .where(eq(orgs.id, orgId))
    .returning();
  if (!org) throw notFound('Organisation');
  return org;
}

/** Whether the org works in Alsace-Moselle (its reminders skip Good Friday and 26 December; lib/platform/orgs/calendar.ts). */
export async function setOrgAlsaceMoselle(db: Db, orgId: string, alsaceMoselle: boolean) {
  await db.update(orgs).set({ alsace_moselle: alsaceMoselle }).where(eq(orgs.id, orgId));
}

/** The logo printed on documents, as a data URL (PNG or JPEG), or null to remove it. */
export async function setOrgLogo(db: Db, orgId: string, dataUrl: string | null) {
  await db.update(orgs).set({ logo_data_url: dataUrl }).where(eq(orgs.id, orgId));
}

export async function createUser(db: Db, input: CreateUserInput) {
  const data = CreateUserInput.parse(input);
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, data.email));
  if (existing) throw conflict('user_exists', `A user with e-mail ${data.email} already exists.`, 'email');
  const [user] = await db
    .insert(users)
    .values({ email: data.email, name: data.name ?? null, password_hash: await hashSecret(data.password) })
    .returning({ id: users.id, email: users.email, name: users.name });
  return user!;
}

export async function findUserByEmail(db: Db, email: string) {
  const [user] = await db.select().from(users).where(eq(users.email, email.trim().toLowerCase()));
  return user ?? null;
}

/** Checks a password; the same argon2 cost is paid for an unknown e-mail so timing does not reveal it. */
export async function authenticateUser(db: Db, email: string, password: string) {
  const user = await findUserByEmail(db, email);
  dummyHash ??= hashSecret(randomUUID());
  const ok = await verifySecret(user?.password_hash ?? (await dummyHash), password);
  return user && ok ? { id: user.id, email: user.email, name: user.name } : null;
}
let dummyHash: Promise<string> | undefined;

export async function addMembership(db: Db, orgId: string, userId: string, role: Role) {
  await getOrg(db, orgId);
  const [row] = await db
    .insert(memberships)
    .values({ org_id: orgId, user_id: userId, role })
    .onConflictDoUpdate({ target: [memberships.org_id, memberships.user_id], set: { role } })
    .returning();
  return row!;
}

/** The orgs a user belongs to, oldest membership first (the default active org). */
export async function listUserOrgs(db: Db, userId: string) {
  return db
    .select({ id: orgs.id, name: orgs.name, role: memberships.role })
    .from(memberships)
    .innerJoin(orgs, eq(orgs.id, memberships.org_id))
    .where(eq(memberships.user_id, userId))
    .orderBy(asc(memberships.id));
}

export async function getMembership(db: Db, orgId: string, userId: string) {
  const [row] = await db
    .select()
    .from(memberships)
    .where(and(eq(memberships.org_id, orgId), eq(memberships.user_id, userId)));
  return row ?? null;
}
