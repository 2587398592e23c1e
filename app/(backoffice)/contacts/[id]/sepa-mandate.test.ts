import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { sepaMandates } from '@/db/schema';
import { billingContext } from '@/lib/domain/documents/testing';
import { createActionWrappers, initialFormState, type StaffSession } from '@/lib/platform/next';
import { addMembership, createUser } from '@/lib/platform/orgs';
import { mandateOfContact } from '@/lib/domain/payments';
import { connectedStripe, withoutStripe } from '@/lib/domain/payments/testing';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { revoke } from './mandate-handlers';

// "Révoquer" on the client page is this handler in the action wrapper, run under a given session against the fake.
let session: StaffSession = null;
const { formAction } = createActionWrappers(async () => session);
const revokeAction = formAction(revoke, { notFound: 'Client introuvable.' });
const revokeOf = (contactId: string) => revokeAction(contactId, initialFormState, new FormData());

const ctx = connectedStripe();
beforeAll(async () => {
  const userId = (await createUser(ctx.org.db, { email: `member-${ctx.org.org.id}@example.fr`, password: 'long enough password' })).id;
  await addMembership(ctx.org.db, ctx.org.org.id, userId, 'member');
  session = { userId, orgId: ctx.org.org.id };
});

/** A mandate as a completed SEPA setup leaves it (lib/domain/payments records it from the provider's events). */
async function mandated(o: TestOrg) {
  const contact = await (await billingContext(o)).contact({ company: 'Prélevé SARL', email: 'compta@preleve.example' });
  await o.db.insert(sepaMandates).values({
    org_id: o.org.id,
    contact_id: contact.id,
    customer_id: 'cus_test',
    payment_method_id: `pm_${contact.id.slice(-12)}`,
    mandate_id: `mandate_${contact.id.slice(-12)}`,
    status: 'active',
    iban_last4: '1234',
  });
  return contact;
}

describe('the client page’s SEPA mandate', () => {
  it('revokes the active mandate: detached at the provider on the org’s account, then marked revoked', async () => {
    const contact = await mandated(ctx.org);
    expect(await mandateOfContact(ctx.org.db, ctx.org.org.id, contact.id)).toMatchObject({ status: 'active', active: true, iban_last4: '1234' });
    ctx.fake.reset();
    expect(await revokeOf(contact.id)).toEqual({ attempt: 1, done: 'Mandat révoqué : le client ne sera plus prélevé.' });
    const detach = ctx.fake.requests.find((r) => r.method === 'POST' && r.path === `/v1/payment_methods/pm_${contact.id.slice(-12)}/detach`);
    expect(detach?.headers['stripe-account']).toBe(ctx.account);
    expect(await mandateOfContact(ctx.org.db, ctx.org.org.id, contact.id)).toMatchObject({ status: 'revoked', active: false, revoked_at: expect.any(String) });
    // Again: nothing live, nothing called.
    ctx.fake.reset();
    expect(await revokeOf(contact.id)).toMatchObject({ done: expect.any(String) });
    expect(ctx.fake.requests).toEqual([]);
  });

  it('another org’s client, or an id that is none, is not found; its mandate stays', async () => {
    const other = await createTestOrg();
    const theirs = await mandated(other);
    expect(await revokeOf(theirs.id)).toMatchObject({ error: 'Client introuvable.' });
    expect(await revokeOf('not-an-id')).toMatchObject({ error: 'Client introuvable.' });
    const [row] = await other.db.select().from(sepaMandates).where(and(eq(sepaMandates.org_id, other.org.id), eq(sepaMandates.contact_id, theirs.id)));
    expect(row!.status).toBe('active');
  });

  it('says online payment is off instead of an error page', async () => {
    const contact = await mandated(ctx.org);
    await withoutStripe(async () => {
      expect(await revokeOf(contact.id)).toMatchObject({ errors: { _form: 'Le paiement en ligne est désactivé.' } });
    });
    expect((await mandateOfContact(ctx.org.db, ctx.org.org.id, contact.id))!.status).toBe('active');
  });
});
