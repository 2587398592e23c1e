import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { einvoicingAllowPrivate, type SecretKey, secretEncryptionKeys } from '@/lib/platform/config';
import { ApiError, validationError } from '@/lib/platform/errors';
import { checkUrlShape, resolveTarget, type Resolver, TargetRefused } from '@/lib/platform/outbound';

/*
 * The org's connection to its Plateforme Agréée (DESIGN §11, docs/einvoicing.md): `{provider: "afnor", base_url,
 * client_id, client_secret, token_url?}`. The secret is sealed at rest (AES-256-GCM, lib/platform/config secretEncryptionKeys)
 * and shown masked (`••••abcd`); a PUT that sends the masked value back keeps the stored secret.
 */

export const PDP_PROVIDERS = ['afnor'] as const;
export const SECRET_MASK = '••••';

/**
 * The URL's shape (lib/platform/outbound checkUrlShape): absolute, https — http only under EINVOICING_ALLOW_PRIVATE —,
 * no credentials, no query or fragment. Where it leads (public addresses only, after DNS) is checkPdpTargets'.
 */
const PaUrl = z
  .string({ error: 'must be a URL' })
  .trim()
  .max(500, { error: 'at most 500 characters' })
  .superRefine((raw, ctx) => {
    try {
      const url = checkUrlShape(raw, einvoicingAllowPrivate());
      if (url.search || url.hash) ctx.addIssue({ code: 'custom', message: 'must not have a query or fragment' });
    } catch (error) {
      if (!(error instanceof TargetRefused)) throw error;
      ctx.addIssue({ code: 'custom', message: error.reason });
    }
  })
  .transform((raw) => raw.replace(/\/+$/, ''));

/** The connection's fields (pdp_config when set). */
export const PdpConfigFields = z.strictObject(
    {
      provider: z.enum(PDP_PROVIDERS, { error: 'must be afnor (the AFNOR XP Z12-013 interface)' }).meta({ description: 'The PA’s interface: afnor (AFNOR XP Z12-013).' }),
      base_url: PaUrl.meta({ description: 'The PA’s API root: the Flow service is at {base_url}/flow-service, the Directory service at {base_url}/directory-service.' }),
      token_url: PaUrl.nullish()
        .transform((v) => v ?? null)
        .meta({ description: 'OAuth 2.0 token endpoint (client credentials); default {base_url}/oauth/token.' }),
      client_id: z
        .string({ error: 'must be a string' })
        .trim()
        .min(1, { error: 'required' })
        .max(200, { error: 'at most 200 characters' })
        .meta({ description: 'OAuth 2.0 client id the PA gave the org.' }),
      client_secret: z
        .string({ error: 'must be a string' })
        .min(1, { error: 'required' })
        .max(1000, { error: 'at most 1000 characters' })
        .meta({ description: 'Write-only: answered masked (••••abcd). Sending the masked value back keeps the stored secret.' }),
    },
    { error: 'must be an object' },
  );

export const PdpConfigInput = PdpConfigFields.nullish()
  .transform((v) => v ?? null)
  .meta({ description: 'The PA connection (e-invoicing), or null. The secret is encrypted at rest and never answered in clear.' });
export type PdpConfigInput = z.output<typeof PdpConfigInput>;

/**
 * Where the PA URLs lead, checked as each connection will check them again (lib/platform/outbound): every address
 * their host names resolve to must be public, unless EINVOICING_ALLOW_PRIVATE; a name that does not resolve is
 * refused too. A refusal is a 422 naming the field. Only the URLs that differ from the stored ones are resolved, so a
 * PUT of other settings that sends pdp_config back as it is does not depend on DNS.
 */
export async function checkPdpTargets(input: PdpConfigInput, stored: unknown, options: { resolve?: Resolver } = {}): Promise<void> {
  if (!input) return;
  const before = stored && typeof stored === 'object' ? (stored as Partial<StoredPdpConfig>) : {};
  const allowPrivate = einvoicingAllowPrivate();
  for (const field of ['base_url', 'token_url'] as const) {
    const url = input[field];
    if (!url || url === before[field]) continue;
    try {
      await resolveTarget(url, { allowPrivate, resolve: options.resolve });
    } catch (error) {
      if (!(error instanceof TargetRefused)) throw error;
      throw validationError(`pdp_config.${field}`, `pdp_config.${field}: ${error.reason}`);
    }
  }
}

/** What the column holds. */
export interface StoredPdpConfig {
  provider: (typeof PDP_PROVIDERS)[number];
  base_url: string;
  token_url: string | null;
  client_id: string;
  /** `v1.<key id>.<iv>.<ciphertext>.<tag>` (base64url). */
  client_secret_sealed: string;
  /** The last 4 characters, for the mask (none for a secret under 12 characters). */
  client_secret_hint: string;
}

/** The configuration with its secret in clear, for the connector only. */
export interface PdpConfig {
  provider: (typeof PDP_PROVIDERS)[number];
  base_url: string;
  token_url: string | null;
  client_id: string;
  client_secret: string;
}

export function sealSecret(plain: string, key: SecretKey = secretEncryptionKeys().current): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key.key, iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', key.id, ...[iv, data, cipher.getAuthTag()].map((b) => b.toString('base64url'))].join('.');
}

/** The secret, or null when no configured key opens it (the key changed, or the value was tampered with). */
export function openSecret(sealed: string): string | null {
  const [version, keyId, iv, data, tag] = sealed.split('.');
  if (version !== 'v1' || !iv || !data || !tag) return null;
  const { current, previous } = secretEncryptionKeys();
  const key = [current, previous].find((k) => k?.id === keyId);
  if (!key) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

const isStored = (value: unknown): value is StoredPdpConfig =>
  !!value && typeof value === 'object' && typeof (value as StoredPdpConfig).client_secret_sealed === 'string';

const maskOf = (stored: StoredPdpConfig) => `${SECRET_MASK}${stored.client_secret_hint}`;

/**
 * The column's new value for a PUT: the secret sealed with the current key; a masked secret (as GET shows it) keeps
 * the stored one, and is refused when there is none to keep.
 */
export function sealPdpConfig(input: PdpConfigInput, stored: unknown): StoredPdpConfig | null {
  if (!input) return null;
  const { client_secret, ...rest } = input;
  if (client_secret.startsWith(SECRET_MASK)) {
    if (isStored(stored) && client_secret === maskOf(stored)) {
      return { ...rest, client_secret_sealed: stored.client_secret_sealed, client_secret_hint: stored.client_secret_hint };
    }
    throw validationError('pdp_config.client_secret', 'pdp_config.client_secret: send the secret itself (a masked value only keeps the stored secret, and none is stored)');
  }
  return { ...rest, client_secret_sealed: sealSecret(client_secret), client_secret_hint: client_secret.length >= 12 ? client_secret.slice(-4) : '' };
}

/** The column as GET answers it: the secret masked. A legacy value (not sealed) is shown without any secret. */
export function maskPdpConfig(stored: unknown): Record<string, unknown> | null {
  if (!stored || typeof stored !== 'object') return null;
  if (!isStored(stored)) {
    const { client_secret: _secret, ...rest } = stored as Record<string, unknown>;
    return rest;
  }
  return { provider: stored.provider, base_url: stored.base_url, token_url: stored.token_url ?? null, client_id: stored.client_id, client_secret: maskOf(stored) };
}

/** The configuration with its secret opened, or null when there is none. 409 when the secret cannot be opened. */
export function readPdpConfig(stored: unknown): PdpConfig | null {
  if (!isStored(stored)) return null;
  const secret = openSecret(stored.client_secret_sealed);
  if (secret === null) {
    throw new ApiError(
      409,
      'einvoicing_secret_unreadable',
      'The PA client secret cannot be decrypted (SECRETS_ENCRYPTION_KEY or AUTH_SECRET changed): enter it again in pdp_config.',
      'pdp_config.client_secret',
    );
  }
  return { provider: stored.provider, base_url: stored.base_url, token_url: stored.token_url ?? null, client_id: stored.client_id, client_secret: secret };
}

/** Re-seals a stored secret with the current key (rotation); null when it is already, or cannot be opened. */
export function resealPdpConfig(stored: unknown): StoredPdpConfig | null {
  if (!isStored(stored)) return null;
  const { current } = secretEncryptionKeys();
  if (stored.client_secret_sealed.split('.')[1] === current.id) return null;
  const secret = openSecret(stored.client_secret_sealed);
  if (secret === null) return null;
  return { ...stored, client_secret_sealed: sealSecret(secret, current) };
}
