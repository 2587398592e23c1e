import { and, asc, eq, gte, inArray, isNotNull, lte } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { documentItems, documents } from '@/db/schema';
import { todayParis } from '@/lib/platform/dates';
import { formatRate } from '@/lib/platform/format';
import { documentTitle } from '@/lib/platform/i18n';
import { computeTotals, normalizeRate, type VatGroup } from '@/lib/platform/money';
import { ACCOUNT_RATES } from './account-rates';
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

const TYPE_WORDS: Record<(typeof JOURNAL_TYPES)[number], string> = { facture: documentTitle('facture'), acompte: documentTitle('acompte'), avoir: documentTitle('avoir') };

/** The client's auxiliary account: C + the random end of its contact id, stable across exports. */
export const auxAccountOf = (contactId: string) => `C${contactId.replaceAll('-', '').slice(-16).toUpperCase()}`;

/** "TVA 20 %", or the category when there is no VAT ("sans TVA (E)"). */
function groupWords(g: VatGroup): string {
  return g.vat_category === 'S' ? `TVA ${formatRate(g.vat_rate)}` : `sans TVA (${g.vat_category})`;
}

/** A line from its amount seen from the debit side (negative: a credit), so that no amount is negative. */
export function sided(line: Omit<FecLine, 'debit' | 'credit'>, debitSide: number): FecLine {
  return { ...line, debit: Math.max(debitSide, 0), credit: Math.max(-debitSide, 0) };
}

/** The nature of a document's sales: goods when it says biens, services otherwise (services, mixte, not said). */
export type SalesNature = 'services' | 'goods';
export const natureOf = (operationNature: string | null): SalesNature => (operationNature === 'biens' ? 'goods' : 'services');

/** The standard rate of a group (its own accounts), or null: another rate, or no VAT (the fallback accounts). */
function rateKeyOf(g: VatGroup) {
  if (g.vat_category !== 'S') return null;
  return ACCOUNT_RATES.find((r) => normalizeRate(r.rate) === normalizeRate(g.vat_rate))?.key ?? null;
}

/** The revenue and VAT accounts of a VAT group, for a document of that nature. */
export function groupAccounts(settings: ExportSettings, nature: SalesNature, g: VatGroup): { revenue: string; vat: string } {
  const key = rateKeyOf(g);
  if (!key) return { revenue: nature === 'goods' ? settings.goods_account : settings.revenue_account, vat: settings.vat_account };
  return { revenue: settings[`${nature}_${key}`], vat: settings[`vat_${key}`] };
}

/** Amounts per account, in the order the accounts first appear, with the words of each group on it. */
function byAccount(items: Array<{ account: string; words: string; amount: number }>) {
  const out = new Map<string, { amount: number; words: string[] }>();
  for (const { account, words, amount } of items) {
    const a = out.get(account) ?? { amount: 0, words: [] };
    a.amount += amount;
    if (!a.words.includes(words)) a.words.push(words);
    out.set(account, a);
  }
  return [...out].map(([account, a]) => ({ account, amount: a.amount, words: a.words.join(', ') }));
}

/**
 * The sales journal of the period: every finalized invoice, deposit invoice and credit note issued in it (cancelled
 * ones included: their offsetting credit note is an entry of its own), oldest first. One entry per document: the
 * client's account debited with the total including VAT, each revenue account (per nature and rate: groupAccounts)
 * credited with its groups' bases, each VAT account with its groups' VAT; a credit note the other way round. The groups are EN 16931's, computed from
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
    const nature = natureOf(doc.operation_nature);
    const sales = nature === 'goods' ? 'Ventes de marchandises' : 'Prestations de services';
    const mapped = totals.groups.map((g) => ({ g, ...groupAccounts(settings, nature, g) }));
    // One revenue line per account, one VAT line per account: groups that share an account add up on one line.
    for (const r of byAccount(mapped.map((m) => ({ account: m.revenue, words: groupWords(m.g), amount: m.g.base })))) {
      if (r.amount !== 0) lines.push(sided({ ...none, account: r.account, accountLabel: `${sales} ${r.words}` }, -sign * r.amount));
    }
    const taxed = mapped.filter((m) => m.g.vat !== 0);
    for (const v of byAccount(taxed.map((m) => ({ account: m.vat, words: formatRate(m.g.vat_rate), amount: m.g.vat })))) {
      if (v.amount !== 0) lines.push(sided({ ...none, account: v.account, accountLabel: `TVA collectée ${v.words}` }, -sign * v.amount));
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
