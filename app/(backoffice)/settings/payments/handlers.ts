import { redirect } from 'next/navigation';
import { ApiError } from '@/lib/platform/errors';
import { refuse, type StaffContext } from '@/lib/platform/next';
import { disconnectAccount, refreshAccount, SETTINGS_PATH, startOnboarding } from '@/lib/domain/payments';

/*
 * What Settings → Paiements' actions and its onboarding route do, apart from their wrappers (actions.ts, the
 * route; revalidation is the actions' part): the tests run these same handlers under a given session, against the
 * fake Stripe.
 */

/** The provider did not answer or refused: the staff member can only try again later. */
async function withProvider<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof ApiError && err.code === 'payments_provider_error') refuse({ _form: 'Stripe n’a pas répondu : réessayez dans un instant.' });
    throw err;
  }
}

/** "Connecter un compte Stripe" / "Terminer la configuration": to the provider's onboarding (redirect, 303). */
export async function connect({ db, orgId }: StaffContext) {
  const link = await withProvider(() => startOnboarding(db, orgId));
  return redirect(link.url);
}

/** "Actualiser": the account's readiness read again from the provider. */
export async function refresh({ db, orgId }: StaffContext) {
  await withProvider(() => refreshAccount(db, orgId));
  return { done: 'État du compte mis à jour.' };
}

/** "Déconnecter": an owner only (lib/domain/payments checks the role as well). */
export async function disconnect({ db, orgId, role }: StaffContext) {
  if (role !== 'owner') refuse({ _form: DISCONNECT_ONLY });
  await disconnectAccount(db, orgId, role);
  return { done: 'Le compte Stripe est déconnecté : le paiement en ligne est arrêté.' };
}

export const CONNECT_ONLY = 'Seuls les administrateurs et les propriétaires connectent le compte de paiement.';
export const DISCONNECT_ONLY = 'Seul un propriétaire de l’organisation peut déconnecter le compte de paiement.';

/**
 * GET /settings/payments/onboarding, the onboarding's `refresh_url`: its link was used or expired, so a new one is
 * made and followed. A member, or an org without an account, goes back to the settings page.
 */
export async function onboardingRedirect(staff: { db: StaffContext['db']; orgId: string; role: StaffContext['role'] | null }): Promise<Response> {
  const back = (query = '') => new Response(null, { status: 303, headers: { location: `${SETTINGS_PATH}${query}`, 'cache-control': 'no-store' } });
  if (staff.role !== 'owner' && staff.role !== 'admin') return back();
  try {
    const link = await startOnboarding(staff.db, staff.orgId);
    return new Response(null, { status: 303, headers: { location: link.url, 'cache-control': 'no-store' } });
  } catch (err) {
    if (err instanceof ApiError && err.status !== 500) return back('?onboarding=failed');
    throw err;
  }
}
