import { NextRequest } from 'next/server';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createActionWrappers, initialFormState, type StaffSession } from '@/lib/platform/next';
import { addMembership, createUser } from '@/lib/platform/orgs';
import { connectAccount, paymentAccountState } from '@/lib/domain/payments';
import { completeOnboarding, connectedStripe, connectRoutes, useFakeStripe } from '@/lib/domain/payments/testing';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { proxy } from '@/proxy';
import { CONNECT_ONLY, connect, DISCONNECT_ONLY, disconnect, onboardingRedirect, refresh } from './handlers';

// Settings → Paiements' actions are these handlers in the action wrapper: run here under a given session (a server
// action reads it from the request's cookie), against the fake Stripe through the real SDK.
let session: StaffSession = null;
const { formAction } = createActionWrappers(async () => session);
const connectAction = formAction(connect, { adminOnly: CONNECT_ONLY });
const refreshAction = formAction(refresh);
const disconnectAction = formAction(disconnect);

const ctx = connectedStripe({ connect: false });
const users: Record<'owner' | 'admin' | 'member', string> = { owner: '', admin: '', member: '' };
const as = (role: keyof typeof users, o: TestOrg = ctx.org) => {
  session = { userId: users[role], orgId: o.org.id };
};

/** What redirect() throws: its digest names the target. */
const redirectOf = async (run: Promise<unknown>) => {
  const err = await run.then(
    () => null,
    (e: unknown) => e,
  );
  const digest = (err as { digest?: string } | null)?.digest ?? '';
  return /^NEXT_REDIRECT;[^;]*;([^;]+);/.exec(digest)?.[1] ?? null;
};

beforeAll(async () => {
  ctx.fake.use(connectRoutes(ctx.fake));
  for (const role of ['owner', 'admin', 'member'] as const) {
    users[role] = (await createUser(ctx.org.db, { email: `${role}-${ctx.org.org.id}@example.fr`, password: 'long enough password' })).id;
    await addMembership(ctx.org.db, ctx.org.org.id, users[role], role);
  }
});
beforeEach(() => ctx.fake.reset());

const accountCreations = () => ctx.fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/accounts');
const linkRequests = () => ctx.fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/account_links');

describe('Settings → Paiements', () => {
  it('refuses a member the connection, before anything is created', async () => {
    as('member');
    expect(await connectAction(initialFormState, new FormData())).toMatchObject({ attempt: 1, error: CONNECT_ONLY });
    expect(ctx.fake.requests).toHaveLength(0);
    expect(await paymentAccountState(ctx.org.db, ctx.org.org.id)).toBeNull();
  });

  it('connects: creates the org’s account on the platform and redirects to its onboarding link', async () => {
    as('admin');
    const target = await redirectOf(connectAction(initialFormState, new FormData()));
    expect(accountCreations()).toHaveLength(1);
    const created = accountCreations()[0]!;
    expect(created.headers['stripe-account']).toBeUndefined();
    expect(created.body).toMatchObject({ type: 'standard', country: 'FR', metadata: { org_id: ctx.org.org.id } });
    const state = await paymentAccountState(ctx.org.db, ctx.org.org.id);
    expect(state).toMatchObject({ charges_enabled: false, details_submitted: false, card_payments: 'inactive' });
    expect(state!.requirements_due.length).toBeGreaterThan(0);
    const [link] = linkRequests();
    expect(link!.body).toEqual({
      account: state!.account_id,
      type: 'account_onboarding',
      refresh_url: 'http://localhost:3000/settings/payments/onboarding',
      return_url: 'http://localhost:3000/settings/payments?from=onboarding',
    });
    expect(target).toMatch(new RegExp(`^${ctx.fake.url}/connect/onboarding/al_\\w+\\?account=${state!.account_id}$`));
  });

  it('a second click onboards the same account again, with a new link', async () => {
    as('owner');
    const before = (await paymentAccountState(ctx.org.db, ctx.org.org.id))!.account_id;
    const first = await redirectOf(connectAction(initialFormState, new FormData()));
    expect(accountCreations()).toHaveLength(0);
    expect((await paymentAccountState(ctx.org.db, ctx.org.org.id))!.account_id).toBe(before);
    expect(first).toContain(`account=${before}`);
  });

  it('the refresh route makes a new link and follows it (links are single-use); a member is sent back', async () => {
    const { account_id } = (await paymentAccountState(ctx.org.db, ctx.org.org.id))!;
    const res = await onboardingRedirect({ db: ctx.org.db, orgId: ctx.org.org.id, role: 'admin' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toMatch(new RegExp(`/connect/onboarding/al_\\w+\\?account=${account_id}$`));
    const again = await onboardingRedirect({ db: ctx.org.db, orgId: ctx.org.org.id, role: 'owner' });
    expect(again.headers.get('location')).not.toBe(res.headers.get('location'));
    expect(linkRequests()).toHaveLength(2);
    const member = await onboardingRedirect({ db: ctx.org.db, orgId: ctx.org.org.id, role: 'member' });
    expect([member.status, member.headers.get('location')]).toEqual([303, '/settings/payments']);
    expect(linkRequests()).toHaveLength(2);
  });

  it('the refresh route of an account the provider no longer knows goes back to the settings page', async () => {
    const other = await createTestOrg();
    const gone = ctx.fake.addAccount({ charges_enabled: false });
    await connectAccount(other.db, other.org.id, gone.id);
    ctx.fake.accounts.delete(gone.id);
    const res = await onboardingRedirect({ db: other.db, orgId: other.org.id, role: 'owner' });
    expect([res.status, res.headers.get('location')]).toEqual([303, '/settings/payments?onboarding=failed']);
  });

  it('"Actualiser" reads the readiness again from the provider once onboarding is done', async () => {
    const { account_id } = (await paymentAccountState(ctx.org.db, ctx.org.org.id))!;
    completeOnboarding(ctx.fake, account_id);
    as('member');
    expect(await refreshAction(initialFormState, new FormData())).toEqual({ attempt: 1, done: 'État du compte mis à jour.' });
    expect(ctx.fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET /v1/accounts/${account_id}`]);
    expect(await paymentAccountState(ctx.org.db, ctx.org.org.id)).toMatchObject({
      charges_enabled: true,
      details_submitted: true,
      card_payments: 'active',
      sepa_debit_payments: 'pending',
      requirements_due: [],
    });
  });

  it('"Actualiser" without an account is refused in French', async () => {
    const other = await createTestOrg();
    const ownerId = (await createUser(other.db, { email: `owner-${other.org.id}@example.fr`, password: 'long enough password' })).id;
    await addMembership(other.db, other.org.id, ownerId, 'owner');
    session = { userId: ownerId, orgId: other.org.id };
    expect(await refreshAction(initialFormState, new FormData())).toMatchObject({ attempt: 1, error: 'Connectez d’abord un compte de paiement en ligne.' });
  });

  it('a provider that does not answer is a French refusal, not an error page', async () => {
    const restore = useFakeStripe({ ...ctx.fake, url: 'http://127.0.0.1:9' });
    try {
      as('owner');
      const state = await refreshAction(initialFormState, new FormData());
      expect(state.errors).toEqual({ _form: 'Stripe n’a pas répondu : réessayez dans un instant.' });
    } finally {
      restore();
    }
  });

  it('lets only an owner disconnect', async () => {
    for (const role of ['member', 'admin'] as const) {
      as(role);
      expect(await disconnectAction(initialFormState, new FormData())).toMatchObject({ errors: { _form: DISCONNECT_ONLY } });
    }
    expect(await paymentAccountState(ctx.org.db, ctx.org.org.id)).not.toBeNull();
    as('owner');
    expect(await disconnectAction(initialFormState, new FormData())).toMatchObject({ done: expect.stringContaining('déconnecté') });
    expect(await paymentAccountState(ctx.org.db, ctx.org.org.id)).toBeNull();
  });

  it('after a disconnection, the account can be linked again (payments:connect) by the same org only', async () => {
    const account = ctx.fake.addAccount();
    await connectAccount(ctx.org.db, ctx.org.org.id, account.id);
    const other = await createTestOrg();
    await expect(connectAccount(other.db, other.org.id, account.id)).rejects.toMatchObject({ status: 409, code: 'payments_account_taken' });
  });
});

describe('the page’s policy', () => {
  // Without JavaScript, "Connecter" is a form post answered by a 303 to the onboarding: Chrome holds that redirect
  // to the CSP's form-action.
  it('lets its forms lead to the provider’s onboarding, and only its own', async () => {
    const csp = async (path: string) => (await proxy(new NextRequest(`http://localhost:3000${path}`, { method: 'POST' }))).headers.get('content-security-policy');
    expect(await csp('/settings/payments')).toContain(`form-action 'self' ${ctx.fake.url};`);
    expect(await csp('/settings/payments/onboarding')).toContain(`form-action 'self' ${ctx.fake.url};`);
    expect(await csp('/settings/invoicing')).toContain("form-action 'self';");
    const base = process.env.STRIPE_API_BASE;
    delete process.env.STRIPE_API_BASE;
    try {
      expect(await csp('/settings/payments')).toContain("form-action 'self' https://connect.stripe.com;");
    } finally {
      process.env.STRIPE_API_BASE = base;
    }
  });
});
