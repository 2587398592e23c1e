import { addDays, daysBetween } from '@/lib/platform/dates';
import type { InvoiceSettingsRow } from '@/lib/domain/invoice-settings';
import type { Org } from '@/lib/platform/orgs';
import type { ContactRow, DocumentRow } from './documents';

/**
 * What finalization freezes, decided here once: finalizeLocked applies it, and GET /v1/invoices/{id}/validation
 * checks a draft's e-invoice as finalizing it now would produce it (lib/domain/documents/einvoice.ts asFinalizedNow).
 */

/**
 * The dates a document is finalized with on `today` (Europe/Paris): a past issue date moves to today, the due and
 * validity dates keeping their offsets. A later issue date is kept (finalizeLocked refuses it for an invoice).
 */
export function finalizationDates(doc: Pick<DocumentRow, 'issue_date' | 'due_date' | 'validity_date'>, today: string) {
  let { issue_date, due_date, validity_date } = doc;
  if (issue_date < today) {
    const shift = daysBetween(issue_date, today);
    issue_date = today;
    due_date = due_date && addDays(due_date, shift);
    validity_date = validity_date && addDays(validity_date, shift);
  }
  return { issue_date, due_date, validity_date };
}

/** The buyer as invoiced: what the document must keep saying even once the contact changes or is erased. */
export function clientSnapshot(c: ContactRow) {
  const name = c.company || [c.first_name, c.last_name].filter(Boolean).join(' ') || null;
  return {
    contact_id: c.id,
    type: c.type,
    name,
    first_name: c.first_name,
    last_name: c.last_name,
    company: c.company,
    email: c.email,
    phone: c.phone,
    address: c.address,
    postal_code: c.postal_code,
    city: c.city,
    country: c.country,
    siret: c.siret,
    siren: c.siren,
    vat_intra: c.vat_intra,
  };
}

/** The seller's legal identity and the payment mentions printed with it (penalties, indemnity, bank details). */
export function sellerSnapshot(org: Org, settings: InvoiceSettingsRow) {
  return {
    name: org.legal_name ?? org.name,
    legal_name: org.legal_name,
    legal_form: org.legal_form,
    share_capital_cents: org.share_capital_cents,
    siren: org.siren,
    siret: org.siret,
    vat_number: org.vat_number,
    rcs: org.rcs,
    address: org.address,
    postal_code: org.postal_code,
    city: org.city,
    country: org.country,
    email: org.email,
    phone: org.phone,
    iban: settings.iban,
    bic: settings.bic,
    penalty_rate: settings.penalty_rate,
    recovery_fee: settings.recovery_fee,
    footer_mentions: settings.footer_mentions,
  };
}
