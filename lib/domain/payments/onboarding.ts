import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { paymentAccounts } from '@/db/schema';
import { appBaseUrl } from '@/lib/platform/config';
import { ApiError } from '@/lib/platform/errors';
import { getOrg } from '@/lib/platform/orgs';
import type { Role } from '@/lib/platform/orgs';
import { loadPaymentAccount, type PaymentAccountState, paymentAccountState, requireAccount, saveReadiness } from './connect-account';
import type { AccountLink, PaymentProvider } from './provider';
import { requireProvider } from './stripe-provider';

/*
 * Settings → Paiements (DESIGN §8): an org connects its own account on the platform and completes it through
 * Account Links. Links are single-use and expire within minutes, so `refresh_url` is a route that makes a new one,
 * and `return_url` is the settings page, which reads the account's readiness again from the provider at once.
 */

export const SETTINGS_PATH = '/settings/payments';
export const ONBOARDING_PATH = '/settings/payments/onboarding';

export const onboardingUrls = () => ({
  refresh_url: `${appBaseUrl()}${ONBOARDING_PATH}`,
  return_url: `${appBaseUrl()}${SETTINGS_PATH}?from=onboarding`,
});

/**
 * An onboarding link for the org's account, creating that account on the platform first when the org has none
 * (its readiness is saved at once, so a refresh or a second click finds it). Two clicks at once create one
 * account: the creation's idempotency key is the org and what is sent.
 */
export async function startOnboarding(db: Db, orgId: string, provider: PaymentProvider = requireProvider()): Promise<AccountLink> {
  let accountId = (await loadPaymentAccount(db, orgId))?.account_id;
  if (!accountId) {
    const org = await getOrg(db, orgId);
    const input = { email: org.email, business_name: org.legal_name ?? org.name, metadata: { org_id: orgId } };
    const digest = createHash('sha256').update(JSON.stringify(input)).digest('hex').slice(0, 16);
    const readiness = await provider.createAccount({ ...input, idempotency_key: `paraphe-account-${orgId}-${digest}` });
    accountId = (await saveReadiness(db, orgId, readiness)).account_id;
  }
  return provider.createAccountLink(accountId, onboardingUrls());
}

/** Reads the org's account from the provider again and saves it (the return from onboarding, "Actualiser"). */
export async function refreshAccount(db: Db, orgId: string, provider: PaymentProvider = requireProvider()): Promise<PaymentAccountState> {
  const row = await requireAccount(db, orgId);
  await saveReadiness(db, orgId, await provider.retrieveAccount(row.account_id));
  return (await paymentAccountState(db, orgId))!;
}

/**
 * Unlinks the org's account (an owner only: new payments stop at once). The account itself stays the org's on the
 * provider, with its history; payments already recorded stay. False when there was none.
 */
export async function disconnectAccount(db: Db, orgId: string, role: Role): Promise<boolean> {
  if (role !== 'owner') throw new ApiError(403, 'forbidden', 'Only an owner of the organisation may disconnect its payment account.');
  const gone = await db.delete(paymentAccounts).where(eq(paymentAccounts.org_id, orgId)).returning({ org_id: paymentAccounts.org_id });
  return gone.length > 0;
}
