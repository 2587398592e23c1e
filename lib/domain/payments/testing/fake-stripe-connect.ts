import type { FakeStripe } from './fake-stripe';
import { accountJson, type FakeRoute } from './fake-stripe-shared';

/*
 * Connect on the fake: POST /v1/accounts (the platform creates an org's account, Settings → Paiements). A new
 * account cannot take payments until onboarding is done: `completeOnboarding` plays the org finishing it on the
 * provider's hosted pages.
 */

/** The route of account creation; install it with `fake.use(connectRoutes(fake))`. */
export function connectRoutes(fake: FakeStripe): FakeRoute {
  return ({ method, path, account, body }) => {
    if (method !== 'POST' || path !== '/v1/accounts' || account) return undefined;
    const created = fake.addAccount({ charges_enabled: false, details_submitted: false });
    created.capabilities = { card_payments: 'inactive', sepa_debit_payments: 'inactive' };
    return [
      200,
      accountJson(created, {
        type: body.type ?? null,
        email: body.email ?? null,
        business_profile: body.business_profile ?? {},
        metadata: body.metadata ?? {},
      }),
    ];
  };
}

/** The org finished onboarding: the account takes cards and SEPA debits, nothing is due. */
export function completeOnboarding(fake: FakeStripe, accountId: string) {
  const a = fake.accounts.get(accountId);
  if (!a) throw new Error(`fake Stripe: no account ${accountId}`);
  Object.assign(a, {
    charges_enabled: true,
    details_submitted: true,
    capabilities: { card_payments: 'active', sepa_debit_payments: 'pending' },
    requirements: { currently_due: [], past_due: [], eventually_due: [] },
  });
}
