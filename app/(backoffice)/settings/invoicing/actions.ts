'use server';

import { revalidatePath } from 'next/cache';
import { getInvoiceSettings, InvoiceSettingsInput, putInvoiceSettings } from '@/lib/domain/invoice-settings';
import { fieldErrors } from '@/lib/platform/errors';
import { formAction, refuse } from '@/lib/platform/next';
import { identifierProblems } from '@/lib/platform/identifiers';
import { parseEuros } from '@/lib/platform/money';

const TEXT_FIELDS = [
  'devis_prefix',
  'facture_prefix',
  'acompte_prefix',
  'avoir_prefix',
  'default_validity_days',
  'default_vat_exigibility',
  'default_payment_terms',
  'default_discount_terms',
  'footer_mentions',
  'iban',
  'bic',
  'penalty_rate',
  'recovery_fee',
  'ereporting_vat_regime',
  'payment_reminder_offsets',
  'quote_expiry_reminder_offsets',
] as const;
const LADDERS = ['payment_reminder_offsets', 'quote_expiry_reminder_offsets'] as const;

/** A ladder typed as "-3, 1, 7": blank is no step; a token that is not an integer is left for the schema to refuse. */
const ladder = (text: string) =>
  text
    .split(/[\s,;]+/)
    .filter(Boolean)
    .map((t) => (/^[-+]?\d+$/.test(t) ? Number(t) : t));
// The PA connection and the e-invoicing switch are Réglages → Facturation électronique's: kept here as stored.
const FLAGS = ['auto_convert_signed_quotes', 'auto_finalize_signed_invoices', 'auto_send_signed_invoices'] as const;
/** E-reporting: a VAT regime (none: nothing reported) and what is reported; the periodicities follow from the regime. */
const EREPORTING_FLAGS = ['b2c_sales', 'international_sales', 'payment_data'] as const;
const FORM_KEYS = new Set<string>([...TEXT_FIELDS, ...FLAGS, 'ereporting_prefs']);

/**
 * PUT /v1/invoice/settings from the form: every field is sent (the PUT replaces the whole object), validated by
 * the API's schema, then by the service (a prefix another series has numbered with). Every invalid field at once.
 */
export const saveInvoiceSettingsAction = formAction(
  async ({ db, orgId }, form) => {
    const texts: Record<string, string> = Object.fromEntries(TEXT_FIELDS.map((k) => [k, String(form.get(k) ?? '')]));
    const errors: Record<string, string> = {};
    let recovery_fee: number | undefined;
    try {
      recovery_fee = parseEuros(texts.recovery_fee!.replace(/€/g, '').trim() || '0', 'recovery_fee');
    } catch {
      errors.recovery_fee = 'Montant en euros, par exemple 40 ou 40,00.';
    }
    const days = texts.default_validity_days!.trim();
    // A PUT resets what it omits: any setting this form does not show is sent back as stored.
    const current = await getInvoiceSettings(db, orgId);
    const kept = Object.fromEntries(Object.entries(current).filter(([key]) => !FORM_KEYS.has(key) && !['org_id', 'created_at', 'updated_at'].includes(key)));
    const body = {
      ...kept,
      devis_prefix: texts.devis_prefix!.trim() || undefined,
      facture_prefix: texts.facture_prefix!.trim() || undefined,
      acompte_prefix: texts.acompte_prefix!.trim() || undefined,
      avoir_prefix: texts.avoir_prefix!.trim() || undefined,
      default_validity_days: days === '' ? undefined : /^\d+$/.test(days) ? Number(days) : days,
      default_vat_exigibility: texts.default_vat_exigibility || null,
      default_payment_terms: texts.default_payment_terms,
      default_discount_terms: texts.default_discount_terms,
      footer_mentions: texts.footer_mentions,
      iban: texts.iban,
      bic: texts.bic,
      penalty_rate: texts.penalty_rate!.trim().replace(',', '.') || null,
      recovery_fee,
      ...Object.fromEntries(FLAGS.map((f) => [f, form.get(f) === 'on'])),
      ereporting_prefs: texts.ereporting_vat_regime
        ? { vat_regime: texts.ereporting_vat_regime, ...Object.fromEntries(EREPORTING_FLAGS.map((f) => [f, form.get(`ereporting_${f}`) === 'on'])) }
        : null,
      ...Object.fromEntries(LADDERS.map((f) => [f, ladder(texts[f]!)])),
    };
    const parsed = InvoiceSettingsInput.safeParse(body);
    if (!parsed.success) for (const [key, message] of Object.entries(fieldErrors(parsed.error))) errors[key] ??= message;
    // Bank details are checked where they are typed (their check digits): the API takes any text.
    for (const [key, message] of Object.entries(identifierProblems({ iban: texts.iban?.trim(), bic: texts.bic?.trim() }))) errors[key] ??= message;
    if (!parsed.success || Object.keys(errors).length) refuse(errors);
    await putInvoiceSettings(db, orgId, parsed.data);
    revalidatePath('/settings/invoicing');
    return { done: 'Réglages de facturation enregistrés.' };
  },
  // A ladder's error names one of its steps ("payment_reminder_offsets.2"): shown beside the ladder's input.
  { adminOnly: 'Seuls les administrateurs peuvent modifier les réglages de facturation.', lists: LADDERS },
);
