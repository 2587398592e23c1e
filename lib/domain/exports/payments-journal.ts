import { and, asc, eq, gte, lte } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { documents, payments } from '@/db/schema';
import { todayParis } from '@/lib/platform/dates';
import { DEFAULT_EXPORT_SETTINGS, type ExportSettings } from './export-settings';
import { auxAccountOf, type FecEntry, sided } from './fec-entries';
import type { Period } from './period';

/** A payment received in the period, with its document: what paiements.csv lists and the bank journal records. */
export interface PeriodPayment {
  id: string;
  paid_at: string;
  created_at: Date;
  amount: number;
  method: (typeof payments.$inferSelect)['method'];
  reference: string | null;
  document_number: string | null;
  document_type: string;
  contact_id: string;
  client: unknown;
}

/** The payments received in the period (their date, not the document's), oldest first: one reading for both files. */
export async function periodPayments(db: Db, orgId: string, period: Period): Promise<PeriodPayment[]> {
  return db
    .select({
      id: payments.id,
      paid_at: payments.paid_at,
      created_at: payments.created_at,
      amount: payments.amount,
      method: payments.method,
      reference: payments.reference,
      document_number: documents.number,
      document_type: documents.type,
      contact_id: documents.contact_id,
      client: documents.client_snapshot,
    })
    .from(payments)
    .innerJoin(documents, eq(documents.id, payments.document_id))
    .where(and(eq(payments.org_id, orgId), eq(documents.org_id, orgId), gte(payments.paid_at, period.from), lte(payments.paid_at, period.to)))
    .orderBy(asc(payments.paid_at), asc(payments.id));
}

const METHOD_WORDS: Record<PeriodPayment['method'], string> = {
  bank_transfer: 'virement',
  card: 'carte',
  sepa_debit: 'prélèvement SEPA',
  cheque: 'chèque',
  cash: 'espèces',
  other: 'autre moyen',
};

/**
 * The bank journal (BQ « Banque » by default) of the period: one entry per payment of paiements.csv, in its order.
 * Money received debits the bank (512) and credits the client (411, its auxiliary account as in the sales journal),
 * which settles the invoice's debit there; money paid back — a refund (a negative amount) or a payment on a credit
 * note — is the same entry the other way round. PieceRef is the document's number, so the accountant can letter it.
 */
export function paymentEntries(rows: readonly PeriodPayment[], settings: ExportSettings = DEFAULT_EXPORT_SETTINGS): FecEntry[] {
  return rows
    .filter((p) => p.amount !== 0)
    .map((p, index) => {
      const client = ((p.client as { name?: string | null } | null)?.name ?? '').trim();
      const received = p.document_type === 'avoir' ? -p.amount : p.amount;
      const words = received >= 0 ? 'Règlement' : 'Remboursement';
      const label = [`${words} ${p.document_number ?? ''}`.trim(), client, METHOD_WORDS[p.method], p.reference ?? ''].filter(Boolean).join(' ');
      const none = { auxAccount: '', auxLabel: '', label };
      return {
        journalCode: settings.bank_journal_code,
        journalLabel: settings.bank_journal_label,
        number: String(index + 1),
        date: p.paid_at,
        pieceRef: p.document_number ?? '',
        validDate: todayParis(p.created_at),
        documentId: p.id,
        lines: [
          sided({ ...none, account: settings.bank_account, accountLabel: 'Banque' }, received),
          sided({ account: settings.client_account, accountLabel: 'Clients', auxAccount: auxAccountOf(p.contact_id), auxLabel: client, label }, -received),
        ],
      };
    });
}

/** Entries of several journals in one file: EcritureNum runs on, 1, 2, 3…, across them. */
export const numbered = (...journals: FecEntry[][]): FecEntry[] => journals.flat().map((e, i) => ({ ...e, number: String(i + 1) }));
