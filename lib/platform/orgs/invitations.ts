import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '@/db/client';
import { memberships, orgInvitations, users } from '@/db/schema';
import { hashSecret, verifySecret } from '@/lib/platform/auth';
import { appBaseUrl } from '@/lib/platform/config';
import { withinEmailLengths } from '@/lib/platform/contract/client';
import { queueEmail } from '@/lib/platform/email';
import { ApiError, conflict, notFound } from '@/lib/platform/errors';
import { getMembership, getOrg } from './orgs';
import { CreateUserInput, Role } from './schemas';

/** How long an invitation's link works. */
export const INVITATION_DAYS = 7;

/** The roles an owner or admin may invite with (an owner is never invited: the org has one). */
export const InvitableRole = Role.exclude(['owner']);

export const InvitationInput = z.object({
  email: z
    .email('E-mail address is malformed.')
    .refine(withinEmailLengths, 'E-mail address is too long (RFC 5321).')
    .transform((e) => e.trim().toLowerCase()),
  role: InvitableRole,
});
export type InvitationInput = z.input<typeof InvitationInput>;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
export const invitationUrl = (token: string) => `${appBaseUrl()}/invitation/${token}`;

/**
 * Invites an e-mail address into the org with a role, and queues the e-mail with the link, in one transaction. A
 * pending invitation of the same address is replaced (its link stops working); a member is not invited again.
 */
export async function createInvitation(db: Db, orgId: string, invitedBy: string, input: InvitationInput) {
  const { email, role } = InvitationInput.parse(input);
  const org = await getOrg(db, orgId);
  const [member] = await db
    .select({ id: memberships.id })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.user_id))
    .where(and(eq(memberships.org_id, orgId), eq(users.email, email)));
  if (member) throw conflict('already_member', `${email} is already a member of this organisation.`, 'email');
  const [inviter] = await db.select({ name: users.name, email: users.email }).from(users).where(eq(users.id, invitedBy));
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + INVITATION_DAYS * 86_400_000);
  const invitation = await db.transaction(async (tx) => {
    await tx
      .update(orgInvitations)
      .set({ revoked_at: new Date() })
      .where(and(eq(orgInvitations.org_id, orgId), eq(orgInvitations.email, email), isNull(orgInvitations.accepted_at), isNull(orgInvitations.revoked_at)));
    const [row] = await tx.insert(orgInvitations).values({ org_id: orgId, email, role, token_hash: hashToken(token), invited_by: invitedBy, expires_at: expiresAt }).returning();
    await queueEmail(tx, orgId, {
      to: [email],
      template: 'org_invitation',
      language: 'fr',
      data: { org_name: org.name, inviter: inviter?.name || inviter?.email || org.name, role, accept_url: invitationUrl(token), expires_at: expiresAt.toISOString() },
    });
    return row!;
  });
  return { invitation, token };
}

/** The org's invitations still waiting for an answer, newest first. */
export async function listPendingInvitations(db: Db, orgId: string) {
  return db
    .select({ id: orgInvitations.id, email: orgInvitations.email, role: orgInvitations.role, expires_at: orgInvitations.expires_at, created_at: orgInvitations.created_at })
    .from(orgInvitations)
    .where(and(eq(orgInvitations.org_id, orgId), isNull(orgInvitations.accepted_at), isNull(orgInvitations.revoked_at), gt(orgInvitations.expires_at, sql`now()`)))
    .orderBy(desc(orgInvitations.id));
}

/** Withdraws a pending invitation of the org: its link stops working. Another org's id, or one answered: 404. */
export async function revokeInvitation(db: Db, orgId: string, id: string) {
  const [row] = await db
    .update(orgInvitations)
    .set({ revoked_at: new Date() })
    .where(and(eq(orgInvitations.id, id), eq(orgInvitations.org_id, orgId), isNull(orgInvitations.accepted_at), isNull(orgInvitations.revoked_at)))
    .returning({ id: orgInvitations.id });
  if (!row) throw notFound('Invitation');
}

/** The org's members with their e-mail and role, oldest first. */
export async function listMembers(db: Db, orgId: string) {
  return db
    .select({ user_id: users.id, email: users.email, name: users.name, role: memberships.role })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.user_id))
    .where(eq(memberships.org_id, orgId))
    .orderBy(memberships.id);
}

/** A link's invitation while it can be accepted (not expired, revoked nor used), with its org's name and whether its e-mail has an account. */
export async function openInvitation(db: Db, token: string) {
  const [row] = await db
    .select()
    .from(orgInvitations)
    .where(and(eq(orgInvitations.token_hash, hashToken(token)), isNull(orgInvitations.accepted_at), isNull(orgInvitations.revoked_at), gt(orgInvitations.expires_at, sql`now()`)));
  if (!row) return null;
  const org = await getOrg(db, row.org_id);
  const [account] = await db.select({ id: users.id }).from(users).where(eq(users.email, row.email));
  return { id: row.id, org_id: row.org_id, org_name: org.name, email: row.email, role: row.role, expires_at: row.expires_at, hasAccount: Boolean(account) };
}

export const AcceptInvitationInput = z.object({
  password: z.string().min(1, 'Password required.').max(200),
  /** A new account only: its name, and the password typed twice. */
  name: z.string().trim().max(200).optional(),
  password_confirmation: z.string().max(200).optional(),
});
export type AcceptInvitationInput = z.input<typeof AcceptInvitationInput>;

/**
 * Accepts an invitation with its link's token: the invited address gets an account (its password chosen here) or,
 * having one, proves it with its password; then it becomes a member of the org that invited it, with the role
 * invited. The token names one org's invitation: it cannot add anyone to another org, nor anyone else than the
 * invited address. Used once (the row is locked, then marked accepted in the same transaction).
 */
export async function acceptInvitation(db: Db, token: string, input: AcceptInvitationInput | Record<string, string>): Promise<{ email: string; orgId: string }> {
  const data = AcceptInvitationInput.parse(input);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(orgInvitations)
      .where(and(eq(orgInvitations.token_hash, hashToken(token)), isNull(orgInvitations.accepted_at), isNull(orgInvitations.revoked_at), gt(orgInvitations.expires_at, sql`now()`)))
      .for('update');
    if (!row) throw notFound('Invitation');
    const [existing] = await tx.select().from(users).where(eq(users.email, row.email));
    let userId: string;
    if (existing) {
      if (!(await verifySecret(existing.password_hash, data.password))) throw new ApiError(422, 'invalid_credentials', 'Wrong password for this account.', 'password');
      userId = existing.id;
    } else {
      if (data.password !== data.password_confirmation) throw new ApiError(422, 'validation_error', 'The two passwords differ.', 'password_confirmation');
      const account = CreateUserInput.parse({ email: row.email, password: data.password, name: data.name || null });
      const [user] = await tx
        .insert(users)
        .values({ email: account.email, name: account.name ?? null, password_hash: await hashSecret(account.password) })
        .returning({ id: users.id });
      userId = user!.id;
    }
    // A member already (invited twice, joined meanwhile): the role they have stays.
    if (!(await getMembership(tx, row.org_id, userId))) await tx.insert(memberships).values({ org_id: row.org_id, user_id: userId, role: row.role });
    await tx.update(orgInvitations).set({ accepted_at: new Date(), accepted_by: userId }).where(eq(orgInvitations.id, row.id));
    return { email: row.email, orgId: row.org_id };
  });
}
