import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '@/db/client';
import { exportSettings } from '@/db/schema';

/** An account number of the chart of accounts: digits, optionally followed by letters or digits (411CLIENT). */
const Account = (what: string) =>
  z
    .string()
    .trim()
    .regex(/^[0-9][0-9A-Z]{2,19}$/, `${what} : 3 à 20 caractères, un chiffre d’abord, puis des chiffres ou des majuscules.`);

/** The accounts and journal the FEC is written with. Refusals in French: only the back-office's form sets them. */
export const ExportSettings = z.object({
  client_account: Account('Compte client').refine((a) => a.startsWith('411'), 'Compte client : un compte 411.'),
  revenue_account: Account('Compte de ventes').refine((a) => a.startsWith('70'), 'Compte de ventes : un compte 70.'),
  vat_account: Account('Compte de TVA').refine((a) => a.startsWith('4457'), 'Compte de TVA : un compte 4457 (TVA collectée).'),
  journal_code: z
    .string()
    .trim()
    .regex(/^[A-Z0-9]{1,8}$/, 'Code journal : 1 à 8 majuscules ou chiffres.'),
  journal_label: z.string().trim().min(1, 'Libellé du journal requis.').max(60, 'Libellé du journal : 60 caractères au plus.'),
});
export type ExportSettings = z.infer<typeof ExportSettings>;

/** The PCG's usual accounts: customers 411, services sold 706, VAT collected 44571; the sales journal VE. */
export const DEFAULT_EXPORT_SETTINGS: ExportSettings = {
  client_account: '411000',
  revenue_account: '706000',
  vat_account: '445710',
  journal_code: 'VE',
  journal_label: 'Ventes',
};

/** The org's accounts, the defaults until it saves its own. */
export async function getExportSettings(db: Db, orgId: string): Promise<ExportSettings> {
  const [row] = await db.select().from(exportSettings).where(eq(exportSettings.org_id, orgId));
  if (!row) return DEFAULT_EXPORT_SETTINGS;
  const { client_account, revenue_account, vat_account, journal_code, journal_label } = row;
  return { client_account, revenue_account, vat_account, journal_code, journal_label };
}

export async function saveExportSettings(db: Db, orgId: string, input: z.input<typeof ExportSettings>): Promise<ExportSettings> {
  const values = ExportSettings.parse(input);
  await db
    .insert(exportSettings)
    .values({ org_id: orgId, ...values })
    .onConflictDoUpdate({ target: exportSettings.org_id, set: { ...values, updated_at: new Date() } });
  return values;
}
