import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { emails, memberships } from '@/db/schema';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { acceptInvitation, addMembership, authenticateUser, createInvitation, createUser, getMembership, listPendingInvitations, openInvitation, revokeInvitation } from '.';

let a: TestOrg;
let b: TestOrg;
let adminA: string;
let adminB: string;

beforeAll(async () => {
  a = await createTestOrg();
  b = await createTestOrg();
  adminA = (await createUser(a.db, { email: `admin-a-${a.org.id}@example.fr`, password: 'long enough password', name: 'Alice Admin' })).id;
  adminB = (await createUser(b.db, { email: `admin-b-${b.org.id}@example.fr`, password: 'long enough password' })).id;
  await addMembership(a.db, a.org.id, adminA, 'admin');
  await addMembership(b.db, b.org.id, adminB, 'admin');
});

describe('invitations', () => {
  it('invite a comptable by e-mail, whose link makes an account that joins that org only, read-only, once', async () => {
    const email = `Compta-${a.org.id}@Example.fr`;
    const { invitation, token } = await createInvitation(a.db, a.org.id, adminA, { email, role: 'accountant' });
    expect(invitation).toMatchObject({ email: email.toLowerCase(), role: 'accountant', org_id: a.org.id });
    const [mail] = await a.db.select().from(emails).where(eq(emails.org_id, a.org.id));
    expect(mail).toMatchObject({ template: 'org_invitation', to: [email.toLowerCase()] });
    expect(mail!.text).toContain(`/invitation/${token}`);
    expect(mail!.subject).toContain('Alice Admin');
    expect(await openInvitation(a.db, token)).toMatchObject({ org_id: a.org.id, role: 'accountant', hasAccount: false });

    await expect(acceptInvitation(a.db, token, { password: 'short', password_confirmation: 'short' })).rejects.toThrow();
    await expect(acceptInvitation(a.db, token, { password: 'long enough password', password_confirmation: 'another one here' })).rejects.toMatchObject({ field: 'password_confirmation' });
    const accepted = await acceptInvitation(a.db, token, { password: 'long enough password', password_confirmation: 'long enough password', name: 'Claire Compta' });
    expect(accepted.orgId).toBe(a.org.id);
    const user = await authenticateUser(a.db, email.toLowerCase(), 'long enough password');
    expect((await getMembership(a.db, a.org.id, user!.id))?.role).toBe('accountant');
    expect(await getMembership(b.db, b.org.id, user!.id)).toBeNull();
    // Used once.
    expect(await openInvitation(a.db, token)).toBeNull();
    await expect(acceptInvitation(a.db, token, { password: 'long enough password' })).rejects.toMatchObject({ status: 404 });
    // A member is not invited again.
    await expect(createInvitation(a.db, a.org.id, adminA, { email, role: 'member' })).rejects.toMatchObject({ code: 'already_member' });
  });

  it('asks an existing account for its own password, and keeps org B’s admin off org A’s invitations', async () => {
    const email = `admin-b-${b.org.id}@example.fr`;
    const { invitation, token } = await createInvitation(a.db, a.org.id, adminA, { email, role: 'accountant' });
    expect((await openInvitation(a.db, token))?.hasAccount).toBe(true);
    // Another org's admin cannot withdraw it, nor see it.
    await expect(revokeInvitation(b.db, b.org.id, invitation.id)).rejects.toMatchObject({ status: 404 });
    expect((await listPendingInvitations(b.db, b.org.id)).map((i) => i.id)).not.toContain(invitation.id);
    expect((await listPendingInvitations(a.db, a.org.id)).map((i) => i.id)).toContain(invitation.id);
    await expect(acceptInvitation(a.db, token, { password: 'not the password' })).rejects.toMatchObject({ code: 'invalid_credentials' });
    await acceptInvitation(a.db, token, { password: 'long enough password' });
    // Joined A as a comptable; still admin of B.
    expect((await getMembership(a.db, a.org.id, adminB))?.role).toBe('accountant');
    expect((await getMembership(b.db, b.org.id, adminB))?.role).toBe('admin');
  });

  it('stops a replaced or withdrawn link', async () => {
    const email = `later-${a.org.id}@example.fr`;
    const first = await createInvitation(a.db, a.org.id, adminA, { email, role: 'accountant' });
    const second = await createInvitation(a.db, a.org.id, adminA, { email, role: 'accountant' });
    expect(await openInvitation(a.db, first.token)).toBeNull();
    await revokeInvitation(a.db, a.org.id, second.invitation.id);
    expect(await openInvitation(a.db, second.token)).toBeNull();
    await expect(acceptInvitation(a.db, second.token, { password: 'long enough password', password_confirmation: 'long enough password' })).rejects.toMatchObject({ status: 404 });
    expect(await a.db.select().from(memberships).where(eq(memberships.org_id, a.org.id))).toHaveLength(3);
    await expect(createInvitation(a.db, a.org.id, adminA, { email, role: 'owner' as never })).rejects.toThrow();
  });
});
