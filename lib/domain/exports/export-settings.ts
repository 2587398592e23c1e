import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '@/db/client';
import { exportSettings } from '@/db/schema';
import { ACCOUNT_RATES, type RateAccountField } from './account-rates';

/** An account number of the chart of accounts: digits, optionally followed by letters or digits (411CLIENT). */
const Account = (what: string) =>
  z
    .string()
    .trim()
    .regex(/^[0-9][0-9A-Z]{2,19}$/, `${what} : 3 à 20 caractères, un chiffre d’abord, puis des chiffres ou des majuscules.`);
const starting = (what: string, prefix: string, words: string) =>
  Account(what).refine((a) => a.startsWith(prefix), `${what} : ${words} requis (plan comptable général).`);
const services = (what: string) => starting(what, '70', 'un compte 70 (706 pour les services)');
const goods = (what: string) => starting(what, '70', 'un compte 70 (707 pour les marchandises)');
const vat = (what: string) => starting(what, '4457', 'un compte 4457 (TVA collectée)');
const JournalCode = (what: string) =>
  z
    .string()
    .trim()
    .regex(/^[A-Z0-9]{1,8}$/, `${what} : 1 à 8 majuscules ou chiffres.`);
const JournalLabel = (what: string) => z.string().trim().min(1, `${what} : à renseigner.`).max(60, `${what} : 60 caractères au plus.`);

const rateFields = Object.fromEntries(
  ACCOUNT_RATES.flatMap(({ key, label }) => [
    [`services_${key}`, services(`Services ${label}`)],
    [`goods_${key}`, goods(`Marchandises ${label}`)],
    [`vat_${key}`, vat(`TVA ${label}`)],
  ]),
) as unknown as Record<RateAccountField, z.ZodString>;

/**
 * The accounts and journals the FEC is written with. Refusals in French: only the back-office's form sets them.
 * Revenue goes to a services (706) or goods (707) account per VAT rate, VAT to a 4457 account per rate; a rate
 * without its own account (and sales without VAT) to `revenue_account` / `goods_account` / `vat_account`.
 */
export const ExportSettings = z.object({
  client_account: starting('Compte client', '411', 'un compte 411'),
  revenue_account: services('Compte de services (autres taux)'),
  goods_account: goods('Compte de marchandises (autres taux)'),
  vat_account: vat('Compte de TVA (autres taux)'),
  ...rateFields,
  journal_code: JournalCode('Code journal'),
  journal_label: JournalLabel('Libellé du journal'),
  bank_account: starting('Compte de banque', '512', 'un compte 512'),
  bank_journal_code: JournalCode('Code du journal de banque'),
  bank_journal_label: JournalLabel('Libellé du journal de banque'),
});
export type ExportSettings = z.infer<typeof ExportSettings>;

/** "20" → "20", "5.5" → "55": the rate's digits at the end of its accounts (706200, 707055…). */
const rateDefaults = Object.fromEntries(
  ACCOUNT_RATES.flatMap(({ key }, i) => {
    const tail = ['200', '100', '055', '021'][i]!;
    return [
      [`services_${key}`, `706${tail}`],
      [`goods_${key}`, `707${tail}`],
      [`vat_${key}`, `44571${i + 1}`],
    ];
  }),
) as Record<RateAccountField, string>;

/**
 * The PCG's usual accounts: customers 411, services sold 706, goods sold 707, VAT collected 4457 (one sub-account
 * per rate: 445711 20 %, 445712 10 %, 445713 5,5 %, 445714 2,1 %), the bank 512; the journals VE and BQ.
 */
export const DEFAULT_EXPORT_SETTINGS: ExportSettings = {
  client_account: '411000',
  revenue_account: '706000',
  goods_account: '707000',
  vat_account: '445710',
  ...rateDefaults,
  journal_code: 'VE',
  journal_label: 'Ventes',
  bank_account: '512000',
  bank_journal_code: 'BQ',
  bank_journal_label: 'Banque',
};

/** The columns of the first version of the table; the rest lives in `accounts` (migration 0035). */
const COLUMNS = ['client_account', 'revenue_account', 'vat_account', 'journal_code', 'journal_label'] as const;

/** The org's accounts, the defaults until it saves its own (and for a setting added since it saved). */
export async function getExportSettings(db: Db, orgId: string): Promise<ExportSettings> {
  const [row] = await db.select().from(exportSettings).where(eq(exportSettings.org_id, orgId));
  if (!row) return DEFAULT_EXPORT_SETTINGS;
  const saved: Record<string, unknown> = { ...(row.accounts as Record<string, unknown>) };
  for (const c of COLUMNS) saved[c] = row[c];
  // A value the rules now refuse is read as its default rather than breaking the download.
  const out = { ...DEFAULT_EXPORT_SETTINGS };
  for (const [key, schema] of Object.entries(ExportSettings.shape)) {
    const parsed = schema.safeParse(saved[key]);
    if (parsed.success) (out as Record<string, string>)[key] = parsed.data as string;
  }
  return out;
}

export async function saveExportSettings(db: Db, orgId: string, input: z.input<typeof ExportSettings>): Promise<ExportSettings> {
  const values = ExportSettings.parse(input);
  const columns = Object.fromEntries(COLUMNS.map((c) => [c, values[c]])) as Pick<ExportSettings, (typeof COLUMNS)[number]>;
  const accounts = Object.fromEntries(Object.entries(values).filter(([k]) => !(COLUMNS as readonly string[]).includes(k)));
  await db
    .insert(exportSettings)
    .values({ org_id: orgId, ...columns, accounts })
    .onConflictDoUpdate({ target: exportSettings.org_id, set: { ...columns, accounts, updated_at: new Date() } });
  return values;
}
