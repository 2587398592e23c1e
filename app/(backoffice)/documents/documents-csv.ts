import { stringify } from 'csv-stringify/sync';
import type { BillingDocument } from '@/lib/domain/documents';
import { csvAmount, formatDay } from '@/lib/platform/format';
import { documentName, paymentState, signedAmount, statusLabel, TYPE_LABELS } from './labels';

/**
 * The documents list as a CSV file for a spreadsheet or an accountant: French conventions (semicolons, decimal
 * commas, dd/mm/yyyy), a UTF-8 byte order mark so that Excel reads the accents, credit notes negative as on the page.
 */
export function documentsCsv(docs: BillingDocument[], paid: Map<string, number>): string {
  const rows = docs.map((d) => {
    const paidCents = paid.get(d.id) ?? 0;
    const payable = d.type === 'facture' || d.type === 'acompte';
    return [
      d.number ?? documentName(d),
      TYPE_LABELS[d.type],
      paymentState(d, paidCents) ?? statusLabel(d),
      d.contact_name ?? '',
      formatDay(d.issue_date),
      formatDay(d.type === 'devis' ? d.validity_date : d.due_date),
      d.title ?? '',
      csvAmount(signedAmount(d, d.total_ht)),
      csvAmount(signedAmount(d, d.total_tva)),
      csvAmount(signedAmount(d, d.total_ttc)),
      payable ? csvAmount(paidCents) : '',
      payable && d.status !== 'cancelled' && d.status !== 'draft' ? csvAmount(d.total_ttc - paidCents) : '',
    ];
  });
  const header = ['Numéro', 'Type', 'Statut', 'Client', 'Émis le', 'Échéance / validité', 'Objet', 'Total HT', 'TVA', 'Total TTC', 'Payé', 'Reste dû'];
  return `\uFEFF${stringify([header, ...rows], { delimiter: ';', record_delimiter: 'windows' })}`;
}
