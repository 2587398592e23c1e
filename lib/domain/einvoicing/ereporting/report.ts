import { and, asc, between, eq, inArray, isNotNull } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { documentItems, documents, invoiceSettings, payments } from '@/db/schema';
import { EU_COUNTRIES } from '@/lib/domain/documents';
import { storedEReportingPrefs } from '@/lib/domain/invoice-settings';
import { computeTotals, Dec, type TotalsLine, type VatGroup } from '@/lib/platform/money';
import type { EReportingData, EReportingQuery } from './schemas';

/**
 * Who a document was sold to, for e-reporting: a private person (B2C), a business established abroad (intra-EU or
 * export), or a business in France — whose invoices travel as e-invoices instead and are not e-reported.
 */
export type Audience = { kind: 'b2c' } | { kind: 'international'; scope: 'intra_eu' | 'export' } | { kind: 'domestic' };

export function audienceOf(snapshot: unknown): Audience {
  const buyer = (snapshot ?? {}) as { type?: string | null; country?: string | null };
  if (buyer.type === 'particulier') return { kind: 'b2c' };
  const country = (buyer.country ?? 'FR').toUpperCase();
  if (country === 'FR') return { kind: 'domestic' };
  return { kind: 'international', scope: EU_COUNTRIES.has(country) ? 'intra_eu' : 'export' };
}

/** Invoices, deposit invoices and credit notes: what is e-invoiced or e-reported (never a quote). */
const REPORTED_TYPES = ['facture', 'acompte', 'avoir'] as const;

type Day = EReportingData['international']['days'][number];

/** Splits `amount` over weights in proportion, rounded half up, the last share taking the remainder: Σ = amount. */
function prorate(amount: number, weights: number[]): number[] {
  const total = weights.reduce((s, w) => s + w, 0);
  if (total === 0) return weights.map((_, i) => (i === weights.length - 1 ? amount : 0));
  let left = amount;
  return weights.map((w, i) => {
    if (i === weights.length - 1) return left;
    const share = new Dec(amount).times(w).dividedBy(total).toDecimalPlaces(0, Dec.ROUND_HALF_UP).toNumber();
    left -= share;
    return share;
  });
}

/** Each document's VAT groups as its totals state them (lib/platform/money computeTotals over its lines). */
async function groupsByDocument(db: Db, orgId: string, ids: string[]): Promise<Map<string, VatGroup[]>> {
  const items = ids.length
    ? await db
        .select()
        .from(documentItems)
        .where(and(eq(documentItems.org_id, orgId), inArray(documentItems.document_id, ids)))
    : [];
  const lines = new Map<string, TotalsLine[]>(ids.map((id) => [id, []]));
  for (const item of items) lines.get(item.document_id)!.push(item);
  return new Map([...lines].map(([id, list]) => [id, computeTotals(list).groups]));
}

/**
 * The data a PA needs to e-report the org's sales (CGI art. 290, 290 A): finalized invoices, deposit invoices and
 * credit notes (negative) to private persons and to businesses abroad, per issue day, VAT category and rate — the VAT
 * of each document's group as the document states it (rounded once per group, EN 16931) — and, for services taxed
 * on receipts, the payments collected per day and rate. Cancelled documents count: their credit note offsets them.
 */
export async function ereportingData(db: Db, orgId: string, q: EReportingQuery): Promise<EReportingData> {
  const [settings] = await db.select({ prefs: invoiceSettings.ereporting_prefs }).from(invoiceSettings).where(eq(invoiceSettings.org_id, orgId));
  const docs = await db
    .select({
      id: documents.id,
      type: documents.type,
      issue_date: documents.issue_date,
      client_snapshot: documents.client_snapshot,
      operation_nature: documents.operation_nature,
      vat_exigibility: documents.vat_exigibility,
    })
    .from(documents)
    .where(
      and(eq(documents.org_id, orgId), inArray(documents.type, [...REPORTED_TYPES]), isNotNull(documents.finalized_at), between(documents.issue_date, q.from, q.to)),
    )
    .orderBy(asc(documents.issue_date));
  const reported = docs.map((d) => ({ ...d, audience: audienceOf(d.client_snapshot) })).filter((d) => d.audience.kind !== 'domestic');
  const groups = await groupsByDocument(db, orgId, reported.map((d) => d.id));

  const rows = new Map<string, Day & { audience: 'b2c' | 'international' }>();
  const totals = { b2c: { total_ht: 0, total_vat: 0, total_ttc: 0 }, international: { total_ht: 0, total_vat: 0, total_ttc: 0 } };
  for (const doc of reported) {
    const sign = doc.type === 'avoir' ? -1 : 1;
    const audience = doc.audience.kind === 'b2c' ? 'b2c' : 'international';
    const scope = doc.audience.kind === 'international' ? doc.audience.scope : 'intra_eu';
    for (const g of groups.get(doc.id)!) {
      const key = `${audience}|${scope}|${doc.issue_date}|${g.vat_category}|${g.vat_rate}`;
      const row = rows.get(key) ?? { audience, kind: scope, date: doc.issue_date, vat_category: g.vat_category, vat_rate: g.vat_rate, invoice_count: 0, credit_note_count: 0, total_ht: 0, total_vat: 0, total_ttc: 0 };
      rows.set(key, row);
      if (sign < 0) row.credit_note_count++;
      else row.invoice_count++;
      const [ht, vat] = [sign * g.base, sign * g.vat];
      row.total_ht += ht;
      row.total_vat += vat;
      row.total_ttc += ht + vat;
      totals[audience].total_ht += ht;
      totals[audience].total_vat += vat;
      totals[audience].total_ttc += ht + vat;
    }
  }
  const days = [...rows.values()].sort((a, b) => a.date.localeCompare(b.date) || a.kind.localeCompare(b.kind) || b.vat_rate.localeCompare(a.vat_rate, 'en', { numeric: true }) || a.vat_category.localeCompare(b.vat_category));
  const plain = ({ audience: _a, kind: _k, ...row }: (typeof days)[number]) => row;

  // Payments: services taxed on receipts (no option for debits), on the reported documents, whenever issued.
  const onReceipts = await db
    .select({ id: documents.id, client_snapshot: documents.client_snapshot })
    .from(documents)
    .where(and(eq(documents.org_id, orgId), inArray(documents.type, [...REPORTED_TYPES]), isNotNull(documents.finalized_at), eq(documents.operation_nature, 'services')))
    .then((list) => list.filter((d) => audienceOf(d.client_snapshot).kind !== 'domestic'));
  const paid = onReceipts.length
    ? await db
        .select({ document_id: payments.document_id, amount: payments.amount, paid_at: payments.paid_at, vat_exigibility: documents.vat_exigibility })
        .from(payments)
        .innerJoin(documents, eq(documents.id, payments.document_id))
        .where(and(eq(payments.org_id, orgId), between(payments.paid_at, q.from, q.to), inArray(payments.document_id, onReceipts.map((d) => d.id))))
    : [];
  const collected = paid.filter((p) => p.vat_exigibility !== 'debits');
  const groupsOf = await groupsByDocument(db, orgId, [...new Set(collected.map((p) => p.document_id))]);
  const byDayRate = new Map<string, { date: string; vat_rate: string; amount: number }>();
  let paymentsTotal = 0;
  for (const p of collected) {
    const groups = groupsOf.get(p.document_id)!;
    prorate(p.amount, groups.map((g) => g.base + g.vat)).forEach((share, i) => {
      const key = `${p.paid_at}|${groups[i]!.vat_rate}`;
      const row = byDayRate.get(key) ?? { date: p.paid_at, vat_rate: groups[i]!.vat_rate, amount: 0 };
      row.amount += share;
      byDayRate.set(key, row);
    });
    paymentsTotal += p.amount;
  }

  return {
    from: q.from,
    to: q.to,
    currency: 'EUR',
    prefs: storedEReportingPrefs(settings?.prefs ?? null),
    b2c: { days: days.filter((d) => d.audience === 'b2c').map(plain), total: totals.b2c },
    international: { days: days.filter((d) => d.audience === 'international').map(({ audience: _a, ...row }) => row), total: totals.international },
    payments: {
      days: [...byDayRate.values()].sort((a, b) => a.date.localeCompare(b.date) || b.vat_rate.localeCompare(a.vat_rate, 'en', { numeric: true })),
      total: { amount: paymentsTotal },
    },
  };
}
