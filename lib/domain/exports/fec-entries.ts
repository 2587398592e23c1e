import { and, asc, eq, gte, inArray, isNotNull, lte } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { documentItems, documents } from '@/db/schema';
import { todayParis } from '@/lib/platform/dates';
import { formatRate } from '@/lib/platform/format';
import { computeTotals, type VatGroup } from '@/lib/platform/money';
import { DEFAULT_EXPORT_SETTINGS, type ExportSettings } from './export-settings';
import type { Period } from './period';

/** One line of an accounting entry, amounts in cents (one of debit and credit is 0). */
export interface FecLine {
  account: string;
  accountLabel: string;
  /** The client's auxiliary account, on the client line only. */
  auxAccount: string;
  auxLabel: string;
  label: string;
  debit: number;
  credit: number;
}

/** One accounting entry: one issued document. */
export interface FecEntry {
  journalCode: string;
  journalLabel: string;
  /** EcritureNum: a continuous sequence in the order of the entries. */
  number: string;
  /** EcritureDate and PieceDate: the document's issue date (a Paris day, YYYY-MM-DD). */
  date: string;
  /** PieceRef: the document's number. */
  pieceRef: string;
  /** ValidDate: the day the document was finalized (Paris). */
  validDate: string;
  documentId: string;
  lines: FecLine[];
}

/** The document types the sales journal records: quotes are no sale. */
export const JOURNAL_TYPES = ['facture', 'acompte', 'avoir'] as const;

const TYPE_WORDS: Record<(typeof JOURNAL_TYPES)[number], string> = { facture: 'Facture', acompte: 'Facture d’acompte', avoir: 'Avoir' };

/** The client's auxiliary account: C + the random end of its contact id, stable across exports. */
export const auxAccountOf = (contactId: string) => `C${contactId.replaceAll('-', '').slice(-16).toUpperCase()}`;

/** "TVA 20 %", or the category when there is no VAT ("exonéré (E)"). */
function groupWords(g: VatGroup): string {
  return g.vat_category === 'S' ? `TVA ${formatRate(g.vat_rate)}` : `sans TVA (${g.vat_category})`;
}

/** A line from its amount seen from the debit side (negative: a credit), so that no amount is negative. */
function sided(line: Omit<FecLine, 'debit' | 'credit'>, debitSide: number): FecLine {
  return { ...line, debit: Math.max(debitSide, 0), credit: Math.max(-debitSide, 0) };
}

/**
 * The sales journal of the period: every finalized invoice, deposit invoice and credit note issued in it (cancelled
 * ones included: their offsetting credit note is an entry of its own), oldest first. One entry per document: the
 * client's account debited with the total including VAT, the revenue account credited with each VAT group's base,
 * the VAT account with each group's VAT; a credit note the other way round. The groups are EN 16931's, computed from
 * the frozen lines as the PDF and the Factur-X do, so each entry balances to the cent.
 */
export async function fecEntries(db: Db, orgId: string, period: Period, settings: ExportSettings = DEFAULT_EXPORT_SETTINGS): Promise<FecEntry[]> {
  const inPeriod = and(
    eq(documents.org_id, orgId),
    inArray(documents.type, [...JOURNAL_TYPES]),
    isNotNull(documents.finalized_at),
    gte(documents.issue_date, period.from),
    lte(documents.issue_date, period.to),
  );
  const docs = await db.select().from(documents).where(inPeriod).orderBy(asc(documents.issue_date), asc(documents.chain_index));
  const items = docs.length
    ? await db
        .select({
          document_id: documentItems.document_id,
          kind: documentItems.kind,
          quantity: documentItems.quantity,
          unit_price: documentItems.unit_price,
          vat_rate: documentItems.vat_rate,
          vat_category: documentItems.vat_category,
        })
        .from(documentItems)
        .innerJoin(documents, eq(documents.id, documentItems.document_id))
        .where(and(inPeriod, eq(documentItems.org_id, orgId)))
        .orderBy(asc(documentItems.position), asc(documentItems.id))
    : [];
  const byDocument = new Map<string, typeof items>();
  for (const item of items) byDocument.set(item.document_id, [...(byDocument.get(item.document_id) ?? []), item]);
  return docs.map((doc, index) => {
    const type = doc.type as (typeof JOURNAL_TYPES)[number];
    const totals = computeTotals(byDocument.get(doc.id) ?? []);
    const sign = type === 'avoir' ? -1 : 1;
    const client = ((doc.client_snapshot as { name?: string | null } | null)?.name ?? '').trim();
    const label = `${TYPE_WORDS[type]} ${doc.number}${client ? ` ${client}` : ''}`;
    const none = { auxAccount: '', auxLabel: '', label };
    const lines: FecLine[] = [
      sided({ account: settings.client_account, accountLabel: 'Clients', auxAccount: auxAccountOf(doc.contact_id), auxLabel: client, label }, sign * totals.total_ttc),
    ];
    for (const g of totals.groups) {
      if (g.base !== 0) lines.push(sided({ ...none, account: settings.revenue_account, accountLabel: `Ventes ${groupWords(g)}` }, -sign * g.base));
    }
    for (const g of totals.groups) {
      if (g.vat !== 0) lines.push(sided({ ...none, account: settings.vat_account, accountLabel: `TVA collectée ${formatRate(g.vat_rate)}` }, -sign * g.vat));
    }
    return {
      journalCode: settings.journal_code,
      journalLabel: settings.journal_label,
      number: String(index + 1),
      date: doc.issue_date,
      pieceRef: doc.number ?? '',
      validDate: todayParis(doc.finalized_at ?? new Date()),
      documentId: doc.id,
      lines,
    };
  });
}
