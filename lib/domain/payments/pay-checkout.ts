
import { RateLimiterRes } from 'rate-limiter-flexible';
import { v7 as uuidv7 } from 'uuid';
import { z } from 'zod';
import type { Db } from '@/db/client';
import { onlinePayments } from '@/db/schema';
import { appBaseUrl } from '@/lib/platform/config';
import type { Language } from '@/lib/platform/format';
import { ApiError, notFound } from '@/lib/platform/errors';
import { sharedLimiter } from '@/lib/platform/http';
import { documentTitle } from '@/lib/platform/i18n';
import { loadPayPage, type PayPage } from './pay-page';
import type { PaymentProvider } from './provider';
import { paymentProvider } from './stripe-provider';

/**
 * POST /pay/<token>/checkout: the payer chose card or SEPA debit on the page; a Checkout Session for the balance is
 * opened on the org's account and the payer is sent to it (DESIGN §8: never a shared session, one per click).
 */

export const PayCheckoutForm = z.object({ method: z.enum(['card', 'sepa_debit']), lang: z.enum(['fr', 'en']).optional() });

/** Sessions one link may open, and one client address, per window: a bot cannot open thousands of sessions. */
export const CHECKOUT_LIMITS = { perToken: 10, perAddress: 30, windowSeconds: 600 };

const limiter = (prefix: string, points: number) => sharedLimiter({ keyPrefix: prefix, points, duration: CHECKOUT_LIMITS.windowSeconds });

/** Counts one checkout for the link and for the address; 429 rate_limited with Retry-After past either limit. */
export async function limitCheckout(tokenHash: string, address: string): Promise<void> {
  const byToken = limiter('pay_checkout_token', CHECKOUT_LIMITS.perToken);
  const byAddress = limiter('pay_checkout_address', CHECKOUT_LIMITS.perAddress);
  try {
    await byAddress.consume(address);
    await byToken.consume(tokenHash);
  } catch (err) {
    if (!(err instanceof RateLimiterRes)) throw err;
    const seconds = Math.max(1, Math.ceil(err.msBeforeNext / 1000));
    throw new ApiError(429, 'rate_limited', `Too many payment attempts: retry in ${seconds} s.`, null, { 'Retry-After': String(seconds) });
  }
}

/** The page's own URL, in the payer's language, with a query (the return from Checkout). */
export function payPageUrl(token: string, lang: Language, query = ''): string {
  const params = [query, lang === 'en' ? 'lang=en' : ''].filter(Boolean).join('&');
  return `${appBaseUrl()}/pay/${token}${params ? `?${params}` : ''}`;
}

const DESCRIPTION: Record<Language, Record<PayPage['document']['type'], string>> = {
  fr: { facture: documentTitle('facture'), acompte: documentTitle('acompte') },
  en: { facture: 'Invoice', acompte: 'Deposit invoice' },
};

/**
 * Opens a Checkout Session for the balance, allowing the method chosen only, and records it (online_payments, open)
 * for the provider's events to settle; returns where to send the payer. A document that cannot be paid online now
 * (paid, cancelled, a debit processing, the method not offered, payment unavailable) sends the payer back to the
 * page, which says why. An unknown token is a 404.
 */
export async function openPayCheckout(
  db: Db,
  token: string,
  form: z.infer<typeof PayCheckoutForm>,
  address: string,
  provider: PaymentProvider | null = paymentProvider(),
): Promise<{ location: string }> {
  const page = await loadPayPage(db, token, provider);
  if (!page) throw notFound('Payment link');
  await limitCheckout(page.token_hash, address);
  const lang = form.lang ?? 'fr';
  if (!provider || !page.account_id || !page.methods.includes(form.method)) return { location: payPageUrl(token, lang) };

  const id = uuidv7();
  const session = await provider.createCheckoutSession(page.account_id, {
    mode: 'payment',
    amount: page.balance,
    description: `${DESCRIPTION[lang][page.document.type]} ${page.document.number}`,
    methods: [form.method],
    // Checkout writes the session id in place of {CHECKOUT_SESSION_ID}: the braces stay as they are.
    success_url: payPageUrl(token, lang, 'status=success&session={CHECKOUT_SESSION_ID}'),
    cancel_url: payPageUrl(token, lang, 'status=cancel'),
    customer_email: page.contact_email,
    metadata: { org_id: page.org_id, document_id: page.document_id, online_payment_id: id },
    idempotency_key: `pay-checkout-${id}`,
  });
  await db.insert(onlinePayments).values({
    id,
    org_id: page.org_id,
    document_id: page.document_id,
    checkout_session_id: session.id,
    method: form.method,
    amount: page.balance,
    status: 'open',
    // The payer's language, for the receipt once the provider settles it.
    language: lang,
  });
  if (!session.url) throw new ApiError(502, 'payments_provider_error', 'The payment provider returned a session without a page to send the payer to.');
  return { location: session.url };
}
