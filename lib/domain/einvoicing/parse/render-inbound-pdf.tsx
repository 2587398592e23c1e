import { Document, Page, renderToBuffer, Text, View } from '@react-pdf/renderer';
import { formatDecimal, formatDecimalAsTyped, formatMoneyIn, formatNumber, formatRate } from '@/lib/platform/format';
import { Dec } from '@/lib/platform/money';
import { Box, documentDay, documentStyles as s, LABELS, LineRow, LinesHeader, Meta, printable, registerFonts, Section, unitLabel, VatSummaryHeader } from '@/lib/domain/pdf';
import { Fragment } from 'react';
import { allowanceChargeLabel, signedAllowanceCharge } from './allowances';
import type { InboundFields, InboundFormat } from './types';

const t = LABELS.fr;
const FORMATS: Record<InboundFormat, string> = { cii: 'UN/CEFACT CII', ubl: 'UBL 2.1', facturx: 'Factur-X' };

export interface InboundView {
  /** The syntax the flow came in (the note under the title says which file is authoritative). */
  format: InboundFormat;
  /** When the PA delivered it, if known. */
  received_at?: Date | null;
}

/** Lines the readable view lays out; the others are counted under the table (the file received has them all). */
export const MAX_READABLE_LINES = 200;
/** Characters of one value shown (a name, a description): the sender writes what it likes, up to the file's 10 MiB. */
export const MAX_READABLE_TEXT = 500;

/** A copy of the fields as the view shows them: every list cut at MAX_READABLE_LINES, every text at MAX_READABLE_TEXT. */
function within<T>(value: T): T {
  if (typeof value === 'string') return (value.length > MAX_READABLE_TEXT ? `${value.slice(0, MAX_READABLE_TEXT)}…` : value) as T;
  if (Array.isArray(value)) return value.slice(0, MAX_READABLE_LINES).map(within) as T;
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, within(v)])) as T;
  }
  return value;
}

/**
 * A readable PDF of a received XML-only e-invoice (CII or UBL), with the templates and fonts of our own invoices
 * (lib/domain/pdf): seller, buyer, number and dates, the lines, the VAT breakdown and the totals, as the seller printed
 * them (a credit note's amounts shown positive, under « Avoir reçu »). In French: it is for the org's staff. It is a
 * view: the XML received stays the invoice of record, as its note says.
 */
export async function renderInboundPdf(parsed: InboundFields, view: InboundView): Promise<Uint8Array> {
  registerFonts();
  const omitted = Math.max(0, parsed.lines.length - MAX_READABLE_LINES);
  const raw = await renderToBuffer(<InboundDocument fields={await printable(within(parsed))} view={view} omitted={omitted} />);
  // As lib/domain/pdf's renderDocument: let React's scheduler release the finished root before the next render.
  await new Promise<void>((resolve) => setImmediate(resolve));
  return new Uint8Array(raw);
}

function InboundDocument({ fields: f, view, omitted }: { fields: InboundFields; view: InboundView; omitted: number }) {
  const credit = f.document_type === 'credit_note';
  const kind = credit ? 'Avoir reçu' : 'Facture reçue';
  // As printed by the seller: the parser negates a credit note's amounts, the view shows them as written.
  const printed = (cents: number) => (credit && cents !== 0 ? -cents : cents);
  const amount = (cents: number) => formatMoneyIn(printed(cents), f.currency, 'fr', { nbsp: true });
  const price = (value: string) => `${formatDecimalAsTyped(new Dec(value).toFixed(Math.max(2, new Dec(value).decimalPlaces())))}\u00a0${f.currency === 'EUR' ? '€' : f.currency}`;
  const rate = (value: string | null) => (value === null ? '' : formatRate(value, 'fr', { nbsp: true }));
  // The lines' allowance and charge rows share the lines' budget (MAX_READABLE_LINES rows in all, lines first): a file
  // of many lines each with several would otherwise lay out thousands of rows.
  let budget = Math.max(0, MAX_READABLE_LINES - f.lines.length);
  const extras = f.lines.map((line) => {
    const shown = Math.min(budget, (line.allowances_charges ?? []).length);
    budget -= shown;
    return shown;
  });
  const extrasLeftOut = f.lines.some((line, i) => (line.allowances_charges ?? []).length > extras[i]!);
  const ids = (siren: string | null, siret: string | null, vat: string | null) =>
    [siren && `${t.siren} ${siren}`, siret && `${t.siret} ${siret}`, vat && `${t.vatNumber} ${vat}`].filter(Boolean).join(' — ');

  return (
    <Document title={`${kind} ${f.invoice_number}`} author={f.seller_name ?? undefined} creator="Paraphe" producer="Paraphe" language="fr-FR">
      <Page size="A4" style={s.page}>
        <Text fixed style={s.runningHead} render={({ pageNumber }) => (pageNumber > 1 ? `${kind} — ${f.invoice_number}` : '')} />
        <View style={s.body}>
          <View style={s.between}>
            <View style={{ width: '55%' }}>
              <Text style={s.boxTitle}>{t.seller}</Text>
              <Text style={s.sellerName}>{f.seller_name ?? '—'}</Text>
              <Text>{ids(f.sender_siren, f.seller_siret, f.seller_vat_number)}</Text>
            </View>
            <View style={{ width: '45%' }}>
              <Text style={s.kind}>{kind}</Text>
              <Text style={s.number}>
                {t.number} {f.invoice_number}
              </Text>
              <Meta label={t.issueDate} value={documentDay(f.issue_date, 'fr')} />
              <Meta label={t.dueDate} value={f.due_date ? documentDay(f.due_date, 'fr') : null} />
              <Meta label="Reçue le" value={view.received_at ? documentDay(view.received_at.toISOString().slice(0, 10), 'fr') : null} />
            </View>
          </View>

          <View style={s.boxes}>
            <View style={{ width: '48%' }} />
            <Box title="Destinataire">
              <Text style={s.bold}>{f.buyer_name ?? '—'}</Text>
              {f.buyer_siren && (
                <Text>
                  {t.siren} {f.buyer_siren}
                </Text>
              )}
            </Box>
          </View>

          <Text style={[s.muted, s.small]}>
            Vue lisible, rendue par Paraphe, de la facture électronique reçue au format {FORMATS[view.format]}
            {f.profile ? ` (${f.profile})` : ''} : le fichier reçu fait foi.
          </Text>

          <View style={s.table}>
            <LinesHeader t={t} />
            {f.lines.map((line, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: printed once, never reordered; a line may have no id
              <Fragment key={i}>
                <LineRow
                  description={line.description || '—'}
                  details={line.details}
                  quantity={line.quantity ? formatDecimal(line.quantity, 'fr') : ''}
                  unit={unitLabel(line.unit, 'fr')}
                  price={line.unit_price ? price(line.unit_price) : ''}
                  rate={rate(line.vat_rate)}
                  total={amount(line.total_ht)}
                />
                {/* The line's allowances and charges (BG-27, BG-28), already in its total: in parentheses under it. */}
                {(line.allowances_charges ?? []).slice(0, extras[i]).map((a, j) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: printed once, in the document's order
                  <LineRow key={j} description={allowanceChargeLabel(a, { nbsp: true })} details={null} quantity="" unit="" price="" rate="" total={`(${amount(signedAllowanceCharge(a))})`} />
                ))}
              </Fragment>
            ))}
          </View>
          {extrasLeftOut && (
            <Text style={[s.muted, s.small]}>Les remises et frais de certaines lignes, compris dans leur total HT, ne sont détaillés que dans le fichier reçu.</Text>
          )}
          {omitted > 0 && (
            <Text style={[s.muted, s.small]}>
              {`… et ${formatNumber(omitted)} autres lignes, que seul le fichier reçu détaille (cette vue en montre ${MAX_READABLE_LINES}).`}
            </Text>
          )}

          <View style={s.summary} wrap={false}>
            <View style={s.vatTable}>
              <VatSummaryHeader t={t} />
              {f.vat_groups.map((g, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: printed once, never reordered
                <View style={s.vatTr} key={`${g.category}|${g.rate}|${i}`}>
                  <Text style={s.vCat}>
                    {g.rate === null ? '—' : rate(g.rate)}
                    {g.category && g.category !== 'S' ? ` (${g.category})` : ''}
                  </Text>
                  <Text style={s.vBase}>{amount(g.base)}</Text>
                  <Text style={s.vAmount}>{amount(g.vat)}</Text>
                </View>
              ))}
            </View>
            <View style={s.totals}>
              {/* BT-109 = Σ lines − document allowances + charges (BG-20, BG-21): each printed, so the column adds up. */}
              {(f.allowances_charges ?? []).length > 0 && (
                <View style={s.totalRow}>
                  <Text>Total des lignes</Text>
                  <Text>{amount(f.line_total ?? f.lines.reduce((sum, l) => sum + l.total_ht, 0))}</Text>
                </View>
              )}
              {(f.allowances_charges ?? []).map((a, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: printed once, in the document's order
                <View style={s.totalRow} key={i}>
                  <Text style={{ maxWidth: '65%' }}>{allowanceChargeLabel(a, { nbsp: true })}</Text>
                  <Text>{amount(signedAllowanceCharge(a))}</Text>
                </View>
              ))}
              <View style={s.totalRow}>
                <Text>{t.totalHt}</Text>
                <Text>{amount(f.total_ht)}</Text>
              </View>
              {f.total_vat !== null && (
                <View style={s.totalRow}>
                  <Text>{t.totalVat}</Text>
                  <Text>{amount(f.total_vat)}</Text>
                </View>
              )}
              <View style={s.grandTotal}>
                <Text>{credit ? t.creditTotal : t.totalTtc}</Text>
                <Text>{amount(f.total_ttc)}</Text>
              </View>
              {f.amount_due !== null && f.amount_due !== f.total_ttc && (
                <View style={s.totalRow}>
                  <Text>{t.netToPay}</Text>
                  <Text>{amount(f.amount_due)}</Text>
                </View>
              )}
            </View>
          </View>

          {f.due_date && !credit && (
            <Section title={t.payment}>
              <Text style={s.bold}>
                {t.dueDate}
                {t.colon}
                {documentDay(f.due_date, 'fr')}
              </Text>
            </Section>
          )}
        </View>

        <View fixed style={s.footer}>
          <Text>Document rendu par Paraphe à partir de la facture électronique reçue ; il n’en est pas l’original.</Text>
          <View style={s.between}>
            <Text style={s.bold}>
              {kind} — {f.invoice_number}
            </Text>
            <Text render={({ pageNumber, totalPages }) => t.page(pageNumber, totalPages)} />
          </View>
        </View>
      </Page>
    </Document>
  );
}
