import type { Metadata } from 'next';
import Link from 'next/link';
import { todayParis } from '@/lib/platform/dates';
import { getInvoiceSettings } from '@/lib/domain/invoice-settings';
import { formatDecimalAsTyped, formatMoneyInput } from '@/lib/platform/format';
import { requireStaffOrg } from '@/lib/platform/next';
import { InvoiceSettingsForm } from './settings-form';

export const metadata: Metadata = { title: 'Facturation' };

export default async function InvoicingSettingsPage() {
  const staff = await requireStaffOrg();
  const s = await getInvoiceSettings(staff.db, staff.orgId);
  return (
    <>
      <div className="page-header">
        <h1>Facturation</h1>
      </div>
      <p className="muted">
        Numérotation, valeurs par défaut et mentions des devis et factures. L’identité du vendeur se règle dans{' '}
        <Link href="/settings/organisation">Organisation</Link>.
      </p>
      <InvoiceSettingsForm
        year={todayParis().slice(0, 4)}
        values={{
          devis_prefix: s.devis_prefix,
          facture_prefix: s.facture_prefix,
          acompte_prefix: s.acompte_prefix,
          avoir_prefix: s.avoir_prefix,
          default_validity_days: String(s.default_validity_days),
          default_vat_exigibility: s.default_vat_exigibility ?? '',
          default_payment_terms: s.default_payment_terms ?? '',
          default_discount_terms: s.default_discount_terms ?? '',
          footer_mentions: s.footer_mentions ?? '',
          iban: s.iban ?? '',
          bic: s.bic ?? '',
          penalty_rate: s.penalty_rate ? formatDecimalAsTyped(s.penalty_rate) : '',
          recovery_fee: formatMoneyInput(s.recovery_fee),
          auto_convert_signed_quotes: s.auto_convert_signed_quotes ? 'on' : '',
          auto_finalize_signed_invoices: s.auto_finalize_signed_invoices ? 'on' : '',
          auto_send_signed_invoices: s.auto_send_signed_invoices ? 'on' : '',
          ereporting_vat_regime: s.ereporting_prefs?.vat_regime ?? '',
          ereporting_b2c_sales: s.ereporting_prefs?.b2c_sales ? 'on' : '',
          ereporting_international_sales: s.ereporting_prefs?.international_sales ? 'on' : '',
          ereporting_payment_data: s.ereporting_prefs?.payment_data ? 'on' : '',
          payment_reminder_offsets: s.payment_reminder_offsets.join(', '),
          quote_expiry_reminder_offsets: s.quote_expiry_reminder_offsets.join(', '),
        }}
      />
    </>
  );
}
