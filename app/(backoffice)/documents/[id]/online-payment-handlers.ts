import { ApiError } from '@/lib/platform/errors';
import { idOf, refuse, type StaffContext } from '@/lib/platform/next';
import { CODE_MESSAGES } from '@/lib/platform/i18n';
import { createPaymentLink } from '@/lib/domain/payments';

/*
 * The document page's online-payment actions apart from their wrappers (online-payment-actions.ts; revalidation is
 * the actions' part): the tests run these same handlers under a given session, against the fake Stripe.
 */

/**
 * The provider's 5xx (online payment off, the provider not answering) as refusals: the page says them, with a link
 * to Settings → Paiements, instead of the error page.
 */
async function refusingOutages<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof ApiError && (err.code === 'payments_disabled' || err.code === 'payments_provider_error')) {
      refuse({ _form: CODE_MESSAGES[err.code]! });
    }
    throw err;
  }
}

/** "Créer le lien de paiement": minted once, the same link after (createPaymentLink, as the API). */
export async function paymentLink({ db, orgId }: StaffContext, _form: unknown, documentId: string) {
  const link = await refusingOutages(() => createPaymentLink(db, orgId, idOf(documentId)));
  return { data: { url: link.url }, done: link.already_exists ? 'Ce document a déjà son lien de paiement.' : 'Lien de paiement créé.' };
}
