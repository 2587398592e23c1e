import { loadContactRow } from '@/lib/domain/documents';
import { ApiError, notFound } from '@/lib/platform/errors';
import { idOf, refuse, type StaffContext } from '@/lib/platform/next';
import { CODE_MESSAGES } from '@/lib/platform/i18n';
import { revokeMandate } from '@/lib/domain/payments';

/**
 * "Révoquer" on the client page: the contact's live SEPA mandate is detached at the provider and marked revoked
 * (revokeMandate, as DELETE …/sepa-mandate). Online payment switched off is said, not an error page. The actions'
 * wrapper (mandate-actions.ts) revalidates; the tests run this handler under a given session.
 */
export async function revoke({ db, orgId }: StaffContext, _form: unknown, contactId: string) {
  const id = idOf(contactId, 'Contact');
  // Another org's contact is not found (revokeMandate alone would find no mandate and answer as done).
  if (!(await loadContactRow(db, orgId, id))) throw notFound('Contact');
  try {
    await revokeMandate(db, orgId, id);
  } catch (err) {
    if (err instanceof ApiError && (err.code === 'payments_disabled' || err.code === 'payments_provider_error')) refuse({ _form: CODE_MESSAGES[err.code]! });
    throw err;
  }
  return { done: 'Mandat révoqué : le client ne sera plus prélevé.' };
}
