/**
 * The SMS port: what a provider adapter implements. `SMS_PROVIDER` names the adapter; unset (or `outbox`), nothing
 * leaves and every message stays in the outbox (/dev/sms), like the e-mails without RESEND_API_KEY.
 */
export interface SmsProvider {
  readonly name: string;
  /** Hands one message over; resolves with the provider's id for it. Throws when refused or unreachable. */
  send(message: { id: string; to: string; body: string }): Promise<{ providerId: string }>;
}

// On globalThis: Next.js may load this file in several bundles of one process.
const key = Symbol.for('paraphe.smsProviders');
const registry = globalThis as { [key]?: Map<string, SmsProvider> };
registry[key] ??= new Map();
const providers = registry[key];

/** Makes an adapter available under its name (SMS_PROVIDER=<name>); tests register a local fake. */
export function registerSmsProvider(provider: SmsProvider): void {
  providers.set(provider.name, provider);
}

/** The configured provider's name, or null for the outbox. */
export function configuredSmsProvider(env: Record<string, string | undefined> = process.env): string | null {
  const name = env.SMS_PROVIDER?.trim();
  return name && name !== 'outbox' ? name : null;
}

/** The adapter of that name; a name nobody registered is a configuration error, said plainly. */
export function smsProvider(name: string): SmsProvider {
  const provider = providers.get(name);
  if (!provider) throw new Error(`SMS_PROVIDER=${name}: no such SMS provider adapter (lib/domain/sms/provider.ts); leave it unset for the outbox`);
  return provider;
}
