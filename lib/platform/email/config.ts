import type { EmailTransport } from '@/db/schema';

/** Send attempts per e-mail, across every job that ever carried it; then the record ends `failed`. */
export const MAX_SEND_ATTEMPTS = 5;
/** Base delay of the exponential back-off between attempts (pg-boss waits 1–2×, 2–4×, 4–8×, 8–16× this). */
export const SEND_RETRY_DELAY_SECONDS = 30;
/** A Resend call that has not answered by then is abandoned (and retried: the idempotency key makes that safe). */
export const PROVIDER_TIMEOUT_MS = 30_000;

export const DEFAULT_EMAIL_FROM = 'Paraphe <factures@paraphe.test>';

/** The sender of every e-mail (`EMAIL_FROM`): a domain verified with the provider; replies go to `reply_to`. */
export function emailFrom(): string {
  return process.env.EMAIL_FROM?.trim() || DEFAULT_EMAIL_FROM;
}

/** Resend when `RESEND_API_KEY` is set, otherwise the outbox (the e-mail stays in the table, shown at /dev/mail). */
export function configuredTransport(): EmailTransport {
  return process.env.RESEND_API_KEY?.trim() ? 'resend' : 'outbox';
}
