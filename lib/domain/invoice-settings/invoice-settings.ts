import { and, eq, ne, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { rowsQuery } from '@/db/prepared';
import { documents, invoiceSettings } from '@/db/schema';
import { validationError } from '@/lib/platform/errors';
import type { DocumentType } from '@/db/schema/billing';
import { todayParis } from '@/lib/platform/dates';
import { storedEReportingPrefs } from './ereporting-prefs';
import { belowLegalFloors } from './legal-floors';
import { checkPdpTargets, maskPdpConfig, type PdpConfigInput, sealPdpConfig } from './pdp-config';
import type { InvoiceSettings, InvoiceSettingsInput } from './schemas';

export type InvoiceSettingsRow = typeof invoiceSettings.$inferSelect;

export function toPublicSettings(row: InvoiceSettingsRow): InvoiceSettings {
  return {
    org_id: row.org_id,
    devis_prefix: row.devis_prefix,
    facture_prefix: row.facture_prefix,
    acompte_prefix: row.acompte_prefix,
    avoir_prefix: row.avoir_prefix,
    default_validity_days: row.default_validity_days,
    default_vat_exigibility: row.default_vat_exigibility,
    default_payment_terms: row.default_payment_terms,
    default_discount_terms: row.default_discount_terms,
    footer_mentions: row.footer_mentions,
    iban: row.iban,
    bic: row.bic,
    penalty_rate: row.penalty_rate,
    recovery_fee: row.recovery_fee,
    auto_convert_signed_quotes: row.auto_convert_signed_quotes,
    auto_finalize_signed_invoices: row.auto_finalize_signed_invoices,
    auto_send_signed_invoices: row.auto_send_signed_invoices,
    einvoicing_enabled: row.einvoicing_enabled,
    ereporting_prefs: storedEReportingPrefs(row.ereporting_prefs),
    pdp_config: maskPdpConfig(row.pdp_config),
    payment_reminder_offsets: row.payment_reminder_offsets,
    quote_expiry_reminder_offsets: row.quote_expiry_reminder_offsets,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

const settingsRow = rowsQuery(invoiceSettings, (db) => db.select().from(invoiceSettings).where(eq(invoiceSettings.org_id, sql.placeholder('org_id'))));

/** The org's settings row, created with the defaults on first use (concurrent first uses insert it once). */
export async function loadSettings(conn: Db, orgId: string): Promise<InvoiceSettingsRow> {
  const [existing] = await settingsRow(conn, { org_id: orgId });
  if (existing) return existing;
  await conn.insert(invoiceSettings).values({ org_id: orgId }).onConflictDoNothing();
  const [row] = await settingsRow(conn, { org_id: orgId });
  return row!;
}

export async function getInvoiceSettings(db: Db, orgId: string): Promise<InvoiceSettings> {
  return toPublicSettings(await loadSettings(db, orgId));
}

/**
 * Points an org that has no e-invoicing platform configured at `input` (the sandbox PA of `npm run dev`); an org
 * that has one keeps it. Returns whether it configured the org. One statement: two starts racing configure it once.
 */
export async function configurePdpIfUnset(db: Db, orgId: string, input: PdpConfigInput): Promise<boolean> {
  await checkPdpTargets(input, null);
  await loadSettings(db, orgId);
  const pdp_config = sealPdpConfig(input, null);
  const updated = await db
    .update(invoiceSettings)
    .set({ pdp_config, updated_at: new Date() })
    .where(and(eq(invoiceSettings.org_id, orgId), sql`${invoiceSettings.pdp_config} is null`))
    .returning({ id: invoiceSettings.org_id });
  return updated.length === 1;
}

const TYPES = ['devis', 'facture', 'acompte', 'avoir'] as const;

/**
 * PUT: the whole settings object; omitted fields have already been defaulted or reset by the schema. A prefix
 * another series has already numbered with is refused, or the two series would hand out the same numbers.
 */
export async function putInvoiceSettings(db: Db, orgId: string, given: InvoiceSettingsInput): Promise<InvoiceSettings> {
  // The PA secret is sealed before it is stored; a masked one (as GET shows it) keeps the stored secret.
  const [current] = await db.select({ pdp_config: invoiceSettings.pdp_config }).from(invoiceSettings).where(eq(invoiceSettings.org_id, orgId));
  await checkPdpTargets(given.pdp_config, current?.pdp_config);
  const input = { ...given, pdp_config: sealPdpConfig(given.pdp_config, current?.pdp_config) };
  // The late-payment mentions are printed on every B2B invoice: never below the law (D441-5, L441-10).
  const [floor] = Object.entries(belowLegalFloors(input, todayParis()));
  if (floor) throw validationError(floor[0], floor[1]);
  for (const type of TYPES) {
    const field = `${type}_prefix` as const;
    // Exactly "{prefix}-{YYYY}-{n}": "FAC" does not claim "FAC-X-2026-00001".
    const pattern = `^${input[field].replace(/[+]/g, '\\+')}-[0-9]{4}-[0-9]+$`;
    const [taken] = await db
      .select({ type: documents.type, number: documents.number })
      .from(documents)
      .where(and(eq(documents.org_id, orgId), ne(documents.type, type), sql`${documents.number} ~ ${pattern}`))
      .limit(1);
    if (taken) throw validationError(field, `${field}: already used by the ${taken.type} series (${taken.number})`);
  }
  const now = new Date();
  const [row] = await db
    .insert(invoiceSettings)
    .values({ org_id: orgId, ...input, created_at: now, updated_at: now })
    .onConflictDoUpdate({ target: invoiceSettings.org_id, set: { ...input, updated_at: now } })
    .returning();
  return toPublicSettings(row!);
}

export function prefixFor(settings: InvoiceSettingsRow, type: DocumentType): string {
  return { devis: settings.devis_prefix, facture: settings.facture_prefix, acompte: settings.acompte_prefix, avoir: settings.avoir_prefix }[type];
}
