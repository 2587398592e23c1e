import { z } from 'zod';
import { VAT_EXIGIBILITIES } from '@/db/schema/billing';
import { Cents, nullableDecimalString, Percentage } from '@/lib/platform/money';
import { nullableString, Timestamp, text } from '@/lib/platform/contract';
import { EReportingPrefs, EReportingPrefsInput } from './ereporting-prefs';
import { PdpConfigInput } from './pdp-config';
import { PaymentReminderOffsets, QuoteExpiryReminderOffsets } from './reminder-offsets';

const Prefix = (fallback: string) =>
  z
    .string({ error: 'must be a string' })
    .trim()
    .regex(/^[A-Za-z0-9][A-Za-z0-9+_/-]{0,19}$/, {
      error: 'must be 1 to 20 characters among A-Z a-z 0-9 + - _ / (the number must stay within 35 such characters)',
    })
    .default(fallback);

const readOnly = z.unknown().optional().meta({ description: 'Read-only (from the GET representation): ignored.' });

/**
 * PUT semantics: an omitted field takes its default (prefixes, non-nullable fields) or is reset to null. The
 * settings as GET answers them can be sent back: org_id, created_at and updated_at are ignored.
 */
export const InvoiceSettingsInput = z
  .strictObject({
    devis_prefix: Prefix('DEV').meta({ description: 'Prefix of the quote numbers (DEV by default): 1 to 20 of A-Z a-z 0-9 + - _ /, distinct from the other prefixes.' }),
    facture_prefix: Prefix('FAC').meta({ description: 'Prefix of the invoice numbers (FAC by default): 1 to 20 of A-Z a-z 0-9 + - _ /, distinct from the other prefixes.' }),
    acompte_prefix: Prefix('AC').meta({ description: 'Prefix of the deposit invoice numbers (AC by default): 1 to 20 of A-Z a-z 0-9 + - _ /, distinct from the other prefixes.' }),
    avoir_prefix: Prefix('AV').meta({ description: 'Prefix of the credit note numbers (AV by default): 1 to 20 of A-Z a-z 0-9 + - _ /, distinct from the other prefixes.' }),
    default_validity_days: z.number({ error: 'must be an integer' }).int({ error: 'must be an integer' }).min(1).max(3650).default(30).meta({ description: 'Days a new quote is valid, 1 to 3650; 30 when omitted.' }),
    default_vat_exigibility: z.enum(VAT_EXIGIBILITIES, { error: 'must be debits or encaissements' }).nullable().default('debits').meta({ description: 'debits (default) or encaissements: when VAT is due on new documents; null: by the operation’s nature.' }),
    default_payment_terms: text(1000).transform((v) => v ?? null).meta({ description: 'Payment terms pre-filled on new documents; omitted or null: none.' }),
    default_discount_terms: text(1000).transform((v) => v ?? null).meta({ description: 'Early-payment discount terms pre-filled on new documents; omitted or null: none.' }),
    footer_mentions: text(5000).transform((v) => v ?? null).meta({ description: 'Extra mentions printed in every document’s footer, at most 5000 characters; omitted or null: none.' }),
    iban: z
      .string({ error: 'must be a string' })
      .transform((s) => s.replace(/\s+/g, '').toUpperCase())
      .refine((s) => s === '' || /^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(s), { error: 'must be an IBAN' })
      .transform((s) => s || null)
      .nullish()
      .transform((v) => v ?? null)
      .meta({ description: 'IBAN printed for transfers; spaces removed, uppercased. Omitted, null or blank: none.' }),
    bic: z
      .string({ error: 'must be a string' })
      .transform((s) => s.replace(/\s+/g, '').toUpperCase())
      .refine((s) => s === '' || /^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(s), { error: 'must be a BIC (8 or 11 characters)' })
      .transform((s) => s || null)
      .nullish()
      .transform((v) => v ?? null)
      .meta({ description: 'BIC printed with the IBAN, 8 or 11 characters. Omitted, null or blank: none.' }),
    penalty_rate: Percentage(4)
      .nullish()
      .transform((v) => v ?? null)
      .meta({ description: 'Late-penalty rate; at least 3 × the legal interest rate in force (C. com. L441-10), else 422. Null: the legal default, ECB rate + 10 points.' }),
    recovery_fee: Cents().default(4000).meta({ description: 'Fixed recovery indemnity in cents; at least 4000 (€40, C. com. D441-5), else 422.' }),
    auto_convert_signed_quotes: z.boolean({ error: 'must be a boolean' }).default(false).meta({ description: 'Convert a quote into an invoice once it is signed; false when omitted.' }),
    auto_finalize_signed_invoices: z.boolean({ error: 'must be a boolean' }).default(false).meta({ description: 'Also finalize that invoice (implies auto_convert_signed_quotes); false when omitted.' }),
    auto_send_signed_invoices: z.boolean({ error: 'must be a boolean' }).default(false).meta({ description: 'Also send it (implies auto_finalize_signed_invoices); false when omitted.' }),
    einvoicing_enabled: z.boolean({ error: 'must be a boolean' }).default(false).meta({ description: 'Transmit finalized invoices through the PA of pdp_config; false when omitted.' }),
    ereporting_prefs: EReportingPrefsInput,
    pdp_config: PdpConfigInput,
    payment_reminder_offsets: PaymentReminderOffsets,
    quote_expiry_reminder_offsets: QuoteExpiryReminderOffsets,
    // The read-only keys of the GET representation, so that it can be sent back as is: ignored.
    org_id: readOnly,
    created_at: readOnly,
    updated_at: readOnly,
  })
  .superRefine((s, ctx) => {
    // Numbers of different types must never collide: each series has its own prefix.
    const seen = new Map<string, string>();
    for (const key of ['devis_prefix', 'facture_prefix', 'acompte_prefix', 'avoir_prefix'] as const) {
      const other = seen.get(s[key].toUpperCase());
      if (other) ctx.addIssue({ code: 'custom', path: [key], message: `must differ from ${other}` });
      seen.set(s[key].toUpperCase(), key);
    }
  })
  .transform(({ org_id: _org, created_at: _created, updated_at: _updated, ...s }) => {
    // The cascade: sending implies finalizing, which implies converting.
    const auto_finalize_signed_invoices = s.auto_finalize_signed_invoices || s.auto_send_signed_invoices;
    return {
      ...s,
      auto_finalize_signed_invoices,
      auto_convert_signed_quotes: s.auto_convert_signed_quotes || auto_finalize_signed_invoices,
    };
  })
  .meta({
    id: 'InvoiceSettingsInput',
    description:
      'Every field optional (no body at all: every default). Omitted: prefixes and non-nullable fields take their defaults, the others are reset to null. ' +
      'org_id, created_at and updated_at (read-only) are ignored, so the GET representation can be sent back. ' +
      'auto_send_signed_invoices implies auto_finalize_signed_invoices, which implies auto_convert_signed_quotes (normalized). ' +
      'The reminder ladders default to [-3, 1, 7, 15, 30] (payment) and [-7, -2] (quote expiry).',
  });
export type InvoiceSettingsInput = z.output<typeof InvoiceSettingsInput>;

export const InvoiceSettings = z
  .object({
    org_id: z.uuid().meta({ description: 'The org.' }),
    devis_prefix: z.string().meta({ description: 'Prefix of the quote numbers.' }),
    facture_prefix: z.string().meta({ description: 'Prefix of the invoice numbers.' }),
    acompte_prefix: z.string().meta({ description: 'Prefix of the deposit invoice numbers.' }),
    avoir_prefix: z.string().meta({ description: 'Prefix of the credit note numbers.' }),
    default_validity_days: z.number().int().meta({ description: 'Days a new quote is valid.' }),
    default_vat_exigibility: z.enum(VAT_EXIGIBILITIES).nullable().meta({ description: 'debits or encaissements: when VAT is due on new documents; null: by the operation’s nature.' }),
    default_payment_terms: nullableString.meta({ description: 'Payment terms pre-filled on new documents; null: none.' }),
    default_discount_terms: nullableString.meta({ description: 'Early-payment discount terms pre-filled; null: none.' }),
    footer_mentions: nullableString.meta({ description: 'Extra mentions printed in the footer; null: none.' }),
    iban: nullableString.meta({ description: 'IBAN printed for transfers; null: none.' }),
    bic: nullableString.meta({ description: 'BIC printed with the IBAN; null: none.' }),
    penalty_rate: nullableDecimalString('percentage', 'Late-penalty rate in percent (decimal string); null: the legal default, ECB rate + 10 points.'),
    recovery_fee: z.number().int().meta({ description: 'Fixed recovery indemnity in cents (at least 4000, C. com. D441-5).' }),
    auto_convert_signed_quotes: z.boolean().meta({ description: 'A signed quote is converted into an invoice.' }),
    auto_finalize_signed_invoices: z.boolean().meta({ description: 'That invoice is also finalized.' }),
    auto_send_signed_invoices: z.boolean().meta({ description: 'That invoice is also sent.' }),
    einvoicing_enabled: z.boolean().meta({ description: 'Finalized invoices are transmitted through the PA.' }),
    ereporting_prefs: EReportingPrefs.nullable().meta({ description: 'E-reporting preferences; null when never set.' }),
    pdp_config: z.record(z.string(), z.unknown()).nullable().meta({ description: 'The PA connection with client_secret masked (••••abcd), or null.' }),
    payment_reminder_offsets: z.array(z.number().int()).meta({ description: 'Payment-reminder ladder: days relative to the due date.' }),
    quote_expiry_reminder_offsets: z.array(z.number().int()).meta({ description: 'Quote-expiry ladder: days relative to the validity date.' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'InvoiceSettings', description: 'The org’s numbering, defaults and legal mentions printed on its documents.' });
export type InvoiceSettings = z.infer<typeof InvoiceSettings>;
