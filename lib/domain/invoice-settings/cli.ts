import { eq, isNotNull } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { invoiceSettings } from '@/db/schema';
import type { CliExtension } from '@/lib/composition/cli/program';
import { secretEncryptionKeys } from '@/lib/platform/config';
import { resealPdpConfig } from './pdp-config';

/**
 * Key rotation (docs/einvoicing.md § Secrets at rest): every stored PA secret sealed with another key than
 * SECRETS_ENCRYPTION_KEY (opened with SECRETS_ENCRYPTION_KEY_PREVIOUS) is sealed again with the current one.
 * Answers how many were resealed, and how many neither key opens (to be entered again).
 */
export async function resealSecrets(db: Db): Promise<{ resealed: number; unreadable: number }> {
  const current = secretEncryptionKeys().current.id;
  const rows = await db.select({ org_id: invoiceSettings.org_id, pdp_config: invoiceSettings.pdp_config }).from(invoiceSettings).where(isNotNull(invoiceSettings.pdp_config));
  let resealed = 0;
  let unreadable = 0;
  for (const row of rows) {
    const sealed = (row.pdp_config as { client_secret_sealed?: unknown }).client_secret_sealed;
    if (typeof sealed !== 'string' || sealed.split('.')[1] === current) continue;
    const next = resealPdpConfig(row.pdp_config);
    if (!next) {
      unreadable++;
      continue;
    }
    await db.update(invoiceSettings).set({ pdp_config: next }).where(eq(invoiceSettings.org_id, row.org_id));
    resealed++;
  }
  return { resealed, unreadable };
}

/** `einvoicing:reseal-secrets [--json]`, after setting SECRETS_ENCRYPTION_KEY (new) and SECRETS_ENCRYPTION_KEY_PREVIOUS (old). */
export const invoiceSettingsCli: CliExtension = (program, io, print) => {
  program
    .command('einvoicing:reseal-secrets')
    .description('Re-encrypt every stored PA client secret with SECRETS_ENCRYPTION_KEY (rotation: the old key in SECRETS_ENCRYPTION_KEY_PREVIOUS)')
    .option('--json', 'JSON output')
    .action(async (o) => {
      const result = await resealSecrets(await io.db());
      const unread = result.unreadable ? `; ${result.unreadable} cannot be opened by either key: enter them again in Réglages → Facturation électronique` : '';
      print(o.json, result, `${result.resealed} secret(s) re-encrypted with the current key${unread}.`);
    });
};
