import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '@/db/client';
import { invoiceSettings } from '@/db/schema';
import { checkPdpTargets, PdpConfigFields, readPdpConfig, SECRET_MASK } from '@/lib/domain/invoice-settings';
import { fromZodError } from '@/lib/platform/errors';
import { connectorOf } from '../connector';
import type { ConnectionCheck } from '../port';
import { limitPaCall } from './limits';

/** A test is interactive: each call waits 10 s at most (the schedule's calls wait 30 s). */
export const TEST_TIMEOUT_MS = 10_000;

/**
 * The connection to test: pdp_config's fields as typed, before they are saved; a blank secret (or the mask GET shows)
 * means the stored one.
 */
export const PaConnectionInput = PdpConfigFields.extend({
  provider: PdpConfigFields.shape.provider.default('afnor'),
  client_secret: z
    .string({ error: 'must be a string' })
    .max(1000, { error: 'at most 1000 characters' })
    .nullish()
    .transform((s) => s || null),
});
export type PaConnectionInput = z.input<typeof PaConnectionInput>;

export interface ConnectionTestResult {
  ok: boolean;
  /** The PA's address tested (no secret). */
  base_url: string;
  checks: ConnectionCheck[];
}

/**
 * « Tester la connexion » (Réglages → Facturation électronique): the connection as typed — validated as pdp_config is
 * (422 naming the field, pdp_config.base_url…), its addresses checked as a save checks them — is tried on the PA:
 * a token, the Flow service, the Directory service (AfnorConnector.checkConnection). Nothing is stored, nothing is
 * written at the PA. A PA failure is a result (which step failed, and why), not an error; 429 past PA_HAND_LIMITS.
 */
export async function testPaConnection(db: Db, orgId: string, raw: unknown): Promise<ConnectionTestResult> {
  const parsed = PaConnectionInput.safeParse(raw);
  if (!parsed.success) throw fromZodError(parsed.error, 'pdp_config');
  const [row] = await db.select({ pdp_config: invoiceSettings.pdp_config }).from(invoiceSettings).where(eq(invoiceSettings.org_id, orgId));
  const given = parsed.data.client_secret;
  const kept = given === null || given.startsWith(SECRET_MASK);
  // 409 einvoicing_secret_unreadable when the stored secret cannot be opened: it has to be typed again.
  const secret = kept ? (readPdpConfig(row?.pdp_config)?.client_secret ?? null) : given;
  const config = PdpConfigFields.safeParse({ ...parsed.data, client_secret: secret ?? '' });
  if (!config.success) throw fromZodError(config.error, 'pdp_config');
  await checkPdpTargets(config.data, null);
  await limitPaCall('connectionTest', orgId);
  const checks = await connectorOf(config.data, { timeoutMs: TEST_TIMEOUT_MS }).checkConnection();
  return { ok: checks.every((c) => c.outcome === 'ok'), base_url: config.data.base_url, checks };
}
