import type { Db } from '@/db/client';
import { paymentAccountState } from './connect-account';
import { paymentProvider } from './stripe-provider';

/**
 * The org takes online payments: the provider is configured and its connected account can charge. What an automatic
 * send (recurring auto_send, a signed quote's invoice) checks to add the payment link or send the plain e-mail.
 */
export async function canTakePayments(db: Db, orgId: string): Promise<boolean> {
  if (!paymentProvider()) return false;
  return (await paymentAccountState(db, orgId))?.charges_enabled === true;
}
