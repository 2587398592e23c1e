import { eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { invoiceSettings } from '@/db/schema';
import { conflict } from '@/lib/platform/errors';
import { type PdpConfig, readPdpConfig } from '@/lib/domain/invoice-settings';
import { AfnorConnector } from './afnor/connector';
import type { AfnorHttpOptions } from './afnor/http';
import type { PaConnector } from './port';

export const notConfigured = () =>
  conflict('einvoicing_not_configured', 'E-invoicing is not configured: set pdp_config (the PA connection) in the invoice settings first.', 'pdp_config');

/** The connector of a configuration (its secret in clear). */
export function connectorOf(config: PdpConfig, options: AfnorHttpOptions = {}): PaConnector {
  switch (config.provider) {
    case 'afnor':
      return new AfnorConnector(config, options);
  }
}

/**
 * The org's PA connector from its invoice settings (the stored row: pdp_config sealed). 409 einvoicing_not_configured
 * without pdp_config; 409 einvoicing_secret_unreadable when its secret cannot be opened.
 */
export function connectorFor(settings: { pdp_config: unknown } | null | undefined, options: AfnorHttpOptions = {}): PaConnector {
  const config = readPdpConfig(settings?.pdp_config);
  if (!config) throw notConfigured();
  return connectorOf(config, options);
}

/** The same, reading the org's settings. */
export async function connectorForOrg(db: Db, orgId: string, options: AfnorHttpOptions = {}): Promise<PaConnector> {
  const [settings] = await db.select({ pdp_config: invoiceSettings.pdp_config }).from(invoiceSettings).where(eq(invoiceSettings.org_id, orgId));
  return connectorFor(settings, options);
}
