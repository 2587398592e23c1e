import { stringify } from 'csv-stringify/sync';
import { and, asc, eq, gte, isNotNull, lte } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { documentItems, documents, type PAYMENT_METHODS } from '@/db/schema';
import { csvAmount, formatDay, formatDecimalAsTyped } from '@/lib/platform/format';
import { documentTitle } from '@/lib/platform/i18n';
import { periodPayments } from './payments-journal';
import type { Period } from './period';

/**
 * A CSV file as the back-office's other exports write it, for a spreadsheet or an accountant: a UTF-8 byte order
 * mark (Excel reads the accents), semicolons, CRLF; amounts with a decimal comma, days dd/mm/yyyy.
 */
export const csvText = (header: readonly string[], rows: readonly (readonly string[])[]) =>
  `\uFEFF${stringify([header, ...rows], { delimiter: ';', record_delimiter: 'windows' })}`;

const TYPE_LABELS: Record<string, string> = { devis: documentTitle('devis'), facture: documentTitle('facture'), acompte: documentTitle('acompte'), avoir: documentTitle('avoir') };

const METHOD_LABELS: Record<(typeof PAYMENT_METHODS)[number], string> = {
  bank_transfer: 'Virement',
  card: 'Carte',
  sepa_debit: 'Prélèvement SEPA',
  cheque: 'Chèque',
  cash: 'Espèces',
  other: 'Autre',
};

const clientName = (snapshot: unknown) => (snapshot as { name?: string | null } | null)?.name ?? '';

/** Credit notes negative, as the documents list and its CSV show them. */
const signedFor = (type: string, cents: number) => (type === 'avoir' ? -cents : cents);

export const LINES_CSV_HEADER = [
  'Numéro',
  'Type',
  'Émis le',
  'Client',
  'Ligne',
  'Nature',
  'Désignation',
  'Quantité',
  'Unité',
  'Prix unitaire HT',
  'Taux de TVA',
  'Catégorie de TVA',
  'Total HT',
  'TVA (indicative)',
  'Total TTC',
] as const;

/**
 * One row per line of every document issued in the period (finalized: drafts have no number yet), in the order of
 * the documents then of their lines. A discount reads as on the document: quantity -1, its amount negative. A
 * line's VAT is indicative (the document's VAT is computed per group, EN 16931).
 */
export async function linesCsv(db: Db, orgId: string, period: Period): Promise<string> {
  const rows = await db
    .select({
      number: documents.number,
      type: documents.type,
      issue_date: documents.issue_date,
      client: documents.client_snapshot,
      position: documentItems.position,
      kind: documentItems.kind,
      description: documentItems.description,
      quantity: documentItems.quantity,
      unit: documentItems.unit,
      unit_price: documentItems.unit_price,
      vat_rate: documentItems.vat_rate,
      vat_category: documentItems.vat_category,
      total_ht: documentItems.total_ht,
      total_ttc: documentItems.total_ttc,
    })
    .from(documentItems)
    .innerJoin(documents, eq(documents.id, documentItems.document_id))
    .where(
      and(
        eq(documents.org_id, orgId),
        eq(documentItems.org_id, orgId),
        isNotNull(documents.finalized_at),
        gte(documents.issue_date, period.from),
        lte(documents.issue_date, period.to),
      ),
    )
    .orderBy(asc(documents.issue_date), asc(documents.chain_index), asc(documentItems.position), asc(documentItems.id));
  return csvText(
    LINES_CSV_HEADER,
    rows.map((r) => [
      r.number ?? '',
      TYPE_LABELS[r.type] ?? r.type,
      formatDay(r.issue_date),
      clientName(r.client),
      String(r.position + 1),
      r.kind === 'discount' ? 'Remise' : 'Produit',
      r.description,
      formatDecimalAsTyped(r.quantity),
      r.unit ?? '',
      csvAmount(r.unit_price),
      formatDecimalAsTyped(r.vat_rate),
      r.vat_category,
      csvAmount(signedFor(r.type, r.total_ht)),
      csvAmount(signedFor(r.type, r.total_ttc - r.total_ht)),
      csvAmount(signedFor(r.type, r.total_ttc)),
    ]),
  );
}

export const PAYMENTS_CSV_HEADER = ['Date', 'Numéro', 'Type', 'Client', 'Moyen', 'Montant', 'Référence'] as const;

/** One row per payment received in the period (its date, not the document's), oldest first: the bank journal's. */
export async function paymentsCsv(db: Db, orgId: string, period: Period): Promise<string> {
  const rows = await periodPayments(db, orgId, period);
  return csvText(
    PAYMENTS_CSV_HEADER,
    rows.map((r) => [
      formatDay(r.paid_at),
      r.document_number ?? '',
      TYPE_LABELS[r.document_type] ?? r.document_type,
      clientName(r.client),
      METHOD_LABELS[r.method],
      csvAmount(r.amount),
      r.reference ?? '',
    ]),
  );
}
