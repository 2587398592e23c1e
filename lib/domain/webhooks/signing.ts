import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** `whsec_` + base64 of 32 random bytes (Standard Webhooks' secret format). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * The Standard Webhooks headers of one attempt: `webhook-signature` holds one `v1,<base64 HMAC-SHA256 of
 * "{id}.{timestamp}.{body}">` per secret (space-separated), so a receiver that still has the previous secret of a
 * rotation verifies too. The `standardwebhooks` package computes each signature.
 */
export function signedHeaders(secrets: readonly string[], id: string, at: Date, body: string): Record<string, string> {
  const timestamp = Math.floor(at.getTime() / 1000);
  const signatures = secrets.map((secret) => new Webhook(secret).sign(id, new Date(timestamp * 1000), body));
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signatures.join(' ') };
}
