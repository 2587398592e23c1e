import { Document, Image, Page, StyleSheet, Text, View } from '@react-pdf/renderer';
import type { ReactNode } from 'react';
import { formatDecimal, formatMoney, formatRate } from '@/lib/platform/format';
import { FONT_STACK } from './fonts';
import { countryName, documentDay, LABELS, legalIdentity, lines, unitLabel } from './i18n';
import { buyerSiren, exemptionOf, isBusiness, paymentTerms, vatOnDebits } from '@/lib/domain/facturx';
import type { RenderModel } from './model';

const INK = '#1d2733';
const MUTED = '#5b6673';
const RULE = '#c9d0d8';
const ACCENT = '#1f4e79';
const SHADE = '#eef2f6';

/** The documents' styles, shared with the readable view of a received e-invoice (lib/domain/einvoicing). */
export const documentStyles = StyleSheet.create({
  page: { fontFamily: FONT_STACK, fontSize: 9, color: INK, paddingTop: 36, paddingBottom: 78, paddingHorizontal: 40 },
  // Line height on the body, not the page: on the page it hides fixed elements that render totalPages (react-pdf 4.9).
  // react-pdf resolves it against the font size where it is declared, so larger texts set their own.
  body: { fontSize: 9, lineHeight: 1.35 },
  row: { flexDirection: 'row' },
  between: { flexDirection: 'row', justifyContent: 'space-between' },
  bold: { fontWeight: 'bold' },
  muted: { color: MUTED },
  small: { fontSize: 7.5 },
  logo: { maxWidth: 150, maxHeight: 60, objectFit: 'contain', marginBottom: 6 },
  sellerName: { fontSize: 11, lineHeight: 1.3, fontWeight: 'bold', marginBottom: 2 },
  kind: { fontSize: 20, lineHeight: 1.2, fontWeight: 'bold', color: ACCENT, textAlign: 'right', textTransform: 'uppercase', marginBottom: 2 },
  number: { fontSize: 11, lineHeight: 1.3, fontWeight: 'bold', textAlign: 'right', marginBottom: 6 },
  metaRow: { flexDirection: 'row', justifyContent: 'flex-end' },
  metaLabel: { color: MUTED, width: 150, textAlign: 'right', paddingRight: 6 },
  metaValue: { width: 90, textAlign: 'right' },
  boxes: { flexDirection: 'row', justifyContent: 'space-between', marginTop: 14, marginBottom: 10 },
  box: { width: '48%', borderWidth: 0.75, borderColor: RULE, borderRadius: 3, padding: 8 },
  boxTitle: { fontSize: 7.5, color: MUTED, textTransform: 'uppercase', marginBottom: 3 },
  info: { marginBottom: 2 },
  title: { fontSize: 11, lineHeight: 1.3, fontWeight: 'bold', marginTop: 6, marginBottom: 2 },
  table: { marginTop: 10 },
  th: { flexDirection: 'row', backgroundColor: ACCENT, color: '#ffffff', fontWeight: 'bold', paddingVertical: 4, paddingHorizontal: 4 },
  tr: { flexDirection: 'row', borderBottomWidth: 0.5, borderBottomColor: RULE, paddingVertical: 3, paddingHorizontal: 4 },
  cDesc: { flexGrow: 1, flexShrink: 1, flexBasis: 0, paddingRight: 6 },
  cQty: { width: 42, textAlign: 'right' },
  cUnit: { width: 46, paddingLeft: 6 },
  cPrice: { width: 66, textAlign: 'right' },
  cVat: { width: 42, textAlign: 'right' },
  cTotal: { width: 72, textAlign: 'right' },
  details: { color: MUTED, fontSize: 8, lineHeight: 1.3, marginTop: 1 },
  summary: { flexDirection: 'row', justifyContent: 'space-between', marginTop: 12 },
  vatTable: { width: '52%' },
  vatTh: { flexDirection: 'row', borderBottomWidth: 0.75, borderBottomColor: INK, paddingBottom: 2, fontWeight: 'bold', fontSize: 8 },
  vatTr: { flexDirection: 'row', paddingVertical: 2, fontSize: 8 },
  vCat: { width: '34%' },
  vBase: { width: '33%', textAlign: 'right' },
  vAmount: { width: '33%', textAlign: 'right' },
  totals: { width: '42%' },
  totalRow: { flexDirection: 'row', justifyContent: 'space-between', paddingVertical: 2 },
  grandTotal: { flexDirection: 'row', justifyContent: 'space-between', backgroundColor: SHADE, padding: 5, marginTop: 3, fontWeight: 'bold', fontSize: 10.5, lineHeight: 1.3 },
  mention: { fontSize: 8, lineHeight: 1.3, marginTop: 3, fontStyle: 'italic' },
  section: { marginTop: 14 },
  sectionTitle: { fontSize: 8, fontWeight: 'bold', color: ACCENT, textTransform: 'uppercase', marginBottom: 3 },
  legal: { fontSize: 7.5, lineHeight: 1.3, color: MUTED, marginTop: 2 },
  approval: { marginTop: 16, alignSelf: 'flex-end', width: '55%', height: 110, borderWidth: 0.75, borderColor: INK, padding: 8 },
  footer: { position: 'absolute', bottom: 22, left: 40, right: 40, borderTopWidth: 0.5, borderTopColor: RULE, paddingTop: 5, fontSize: 7, color: MUTED },
  runningHead: { position: 'absolute', top: 16, left: 40, right: 40, fontSize: 7.5, color: MUTED, textAlign: 'right' },
  watermark: { position: 'absolute', top: 330, left: 0, right: 0, alignItems: 'center', transform: 'rotate(-35deg)' },
  // 84 pt keeps "BROUILLON" on one line across the page.
  watermarkText: { fontSize: 84, lineHeight: 1.2, fontWeight: 'bold', color: '#c00000', opacity: 0.12, letterSpacing: 2 },
});

const s = documentStyles;

export function Meta({ label, value }: { label: string; value: string | null }) {
  if (!value) return null;
  return (
    <View style={s.metaRow}>
      <Text style={s.metaLabel}>{label}</Text>
      <Text style={s.metaValue}>{value}</Text>
    </View>
  );
}

export function Box({ title, children }: { title: string; children: ReactNode }) {
  return (
    <View style={s.box}>
      <Text style={s.boxTitle}>{title}</Text>
      {children}
    </View>
  );
}

export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <View style={s.section}>
      {/* A title never ends a page alone. */}
      <Text style={s.sectionTitle} minPresenceAhead={36}>
        {title}
      </Text>
      {children}
    </View>
  );
}

type Labels = (typeof LABELS)['fr'];

/** The lines table's header row, repeated on every page. */
export function LinesHeader({ t }: { t: Labels }) {
  return (
    <View style={s.th} fixed>
      <Text style={s.cDesc}>{t.description}</Text>
      <Text style={s.cQty}>{t.quantity}</Text>
      <Text style={s.cUnit}>{t.unit}</Text>
      <Text style={s.cPrice}>{t.unitPrice}</Text>
      <Text style={s.cVat}>{t.vatRate}</Text>
      <Text style={s.cTotal}>{t.lineTotal}</Text>
    </View>
  );
}

/** One line of the table, its cells already said in the document's language. */
export function LineRow(c: { description: string; details: string | null; quantity: string; unit: string; price: string; rate: string; total: string }) {
  return (
    <View style={s.tr} wrap={false}>
      <View style={s.cDesc}>
        <Text>{c.description}</Text>
        {c.details && <Text style={s.details}>{c.details}</Text>}
      </View>
      <Text style={s.cQty}>{c.quantity}</Text>
      <Text style={s.cUnit}>{c.unit}</Text>
      <Text style={s.cPrice}>{c.price}</Text>
      <Text style={s.cVat}>{c.rate}</Text>
      <Text style={s.cTotal}>{c.total}</Text>
    </View>
  );
}

/** The VAT breakdown's title and header row. */
export function VatSummaryHeader({ t }: { t: Labels }) {
  return (
    <>
      <Text style={s.sectionTitle}>{t.vatSummary}</Text>
      <View style={s.vatTh}>
        <Text style={s.vCat}>{t.vatRate}</Text>
        <Text style={s.vBase}>{t.vatBase}</Text>
        <Text style={s.vAmount}>{t.vatAmount}</Text>
      </View>
    </>
  );
}

/**
 * The printable quote, invoice, deposit invoice or credit note, in the buyer's language. `singlePage` lays it out as
 * a one-page document: the running head (printed from page 2 on) is empty and the page number is plain text —
 * the page the render props draw, without the relayouts of the page react-pdf runs for each (renderDocument checks
 * that the document did fit, and lays it out again with them when it did not).
 */
export function InvoiceDocument({
  model: m,
  singlePage = false,
  fontFamily = FONT_STACK,
}: {
  model: RenderModel;
  singlePage?: boolean;
  /** FONT_STACK, or Liberation Sans alone for a text that needs no fallback (react-pdf loads every family a style names). */
  fontFamily?: string[];
}) {
  const lang = m.language;
  const t = LABELS[lang];
  const money = (cents: number) => formatMoney(cents, lang, { nbsp: true });
  const rate = (value: string) => formatRate(value, lang, { nbsp: true });
  const date = (day: string | null) => (day ? documentDay(day, lang) : null);
  const kind = t.kind[m.type];
  const number = m.number ?? t.draftNumber;
  const buyer = m.buyer;
  const siren = buyerSiren(buyer);
  const business = isBusiness(buyer);
  const payable = m.type === 'facture' || m.type === 'acompte';
  const categories = [...new Set(m.totals.groups.map((g) => g.vat_category))];
  const exemptions = categories.map((c) => exemptionOf(c, m.items)).filter((e) => e !== null);
  const seller = m.seller;
  const method = m.payment_method ? (t.paymentMethods[m.payment_method] ?? m.payment_method) : null;
  // Said from the due date, as BT-20 is (lib/domain/facturx/mentions.ts).
  const terms = paymentTerms(m);

  return (
    <Document
      title={`${kind} ${m.number ?? ''}`.trim()}
      author={seller.legal_name ?? seller.name}
      subject={`${kind} ${number} — ${buyer.name ?? ''}`}
      creator="Paraphe"
      producer="Paraphe"
      language={lang === 'fr' ? 'fr-FR' : 'en-GB'}
    >
      <Page size="A4" style={fontFamily === FONT_STACK ? s.page : { ...s.page, fontFamily }}>
        {m.draft && (
          <View fixed style={s.watermark}>
            <Text style={s.watermarkText}>{t.draft}</Text>
          </View>
        )}
        {singlePage ? <Text fixed style={s.runningHead} /> : <Text fixed style={s.runningHead} render={({ pageNumber }) => (pageNumber > 1 ? `${kind} — ${number}` : '')} />}
        <View style={s.body}>

        <View style={s.between}>
          <View style={{ width: '55%' }}>
            {m.logo && <Image src={m.logo} style={s.logo} />}
            <Text style={s.sellerName}>{seller.name}</Text>
            {lines(seller.address, lines(seller.postal_code, seller.city).join(' '), seller.country !== 'FR' ? countryName(seller.country, lang) : null, seller.email, seller.phone).map(
              (l) => (
                <Text key={l}>{l}</Text>
              ),
            )}
          </View>
          <View style={{ width: '45%' }}>
            <Text style={s.kind}>{kind}</Text>
            <Text style={s.number}>{m.number ? `${t.number} ${m.number}` : t.draftNumber}</Text>
            <Meta label={t.issueDate} value={date(m.issue_date)} />
            <Meta label={t.serviceDate} value={date(m.service_date)} />
            {payable && <Meta label={t.dueDate} value={date(m.due_date)} />}
            {m.type === 'devis' && <Meta label={t.validityDate} value={date(m.validity_date)} />}
          </View>
        </View>

        <View style={s.boxes}>
          {m.delivery_address ? (
            <Box title={t.deliveryAddress}>
              {lines(
                m.delivery_address.name,
                m.delivery_address.address,
                lines(m.delivery_address.postal_code, m.delivery_address.city).join(' '),
                m.delivery_address.country !== 'FR' ? countryName(m.delivery_address.country, lang) : null,
              ).map((l) => (
                <Text key={l}>{l}</Text>
              ))}
            </Box>
          ) : (
            <View style={{ width: '48%' }} />
          )}
          <Box title={t.buyer}>
            <Text style={s.bold}>{buyer.name ?? '—'}</Text>
            {lines(buyer.address, lines(buyer.postal_code, buyer.city).join(' '), buyer.country !== 'FR' ? countryName(buyer.country, lang) : null).map((l) => (
              <Text key={l}>{l}</Text>
            ))}
            {siren && (
              <Text>
                {t.siren} {siren}
                {buyer.siret ? ` — ${t.siret} ${buyer.siret}` : ''}
              </Text>
            )}
            {buyer.vat_intra && (
              <Text>
                {t.vatNumber} {buyer.vat_intra}
              </Text>
            )}
          </Box>
        </View>

        {m.operation_nature && (
          <Text style={s.info}>
            <Text style={s.muted}>{t.operationNature}{t.colon}</Text>
            {t.natures[m.operation_nature]}
          </Text>
        )}
        {vatOnDebits(m) && <Text style={s.info}>{t.vatOnDebits}</Text>}
        {m.type === 'acompte' && m.quote && (
          <Text style={s.info}>{t.depositOf(rate(m.acompte_percentage ?? '0'), m.quote.number, documentDay(m.quote.issue_date, lang))}</Text>
        )}
        {m.type === 'facture' && m.quote && <Text style={s.info}>{t.fromQuote(m.quote.number, documentDay(m.quote.issue_date, lang))}</Text>}
        {m.type === 'avoir' && m.credited && (
          <Text style={s.info}>{t.creditFor(t.creditInvoice[m.credited.type], m.credited.number, documentDay(m.credited.issue_date, lang))}</Text>
        )}
        {m.type === 'avoir' && (m.credit_reason_code || m.credit_reason_text) && (
          <Text style={s.info}>
            <Text style={s.muted}>{t.creditReason}{t.colon}</Text>
            {lines(m.credit_reason_code && t.creditReasons[m.credit_reason_code], m.credit_reason_text).join(' — ')}
          </Text>
        )}
        {m.title && <Text style={s.title}>{m.title}</Text>}
        {m.description && <Text>{m.description}</Text>}

        <View style={s.table}>
          <LinesHeader t={t} />
          {m.items.map((item) => (
            <LineRow
              key={item.id}
              description={item.kind === 'discount' && !/^(remise|discount|déduction)/i.test(item.description) ? `${t.discount} — ${item.description}` : item.description}
              details={item.details}
              quantity={item.kind === 'discount' ? '' : formatDecimal(item.quantity, lang)}
              unit={item.kind === 'discount' ? '' : unitLabel(item.unit, lang)}
              price={item.kind === 'discount' ? '' : money(item.unit_price)}
              rate={rate(item.vat_rate)}
              total={money(item.total_ht)}
            />
          ))}
        </View>

        <View style={s.summary} wrap={false}>
          <View style={s.vatTable}>
            <VatSummaryHeader t={t} />
            {m.totals.groups.map((g) => (
              <View style={s.vatTr} key={`${g.vat_category}|${g.vat_rate}`}>
                <Text style={s.vCat}>
                  {rate(g.vat_rate)}
                  {g.vat_category !== 'S' ? ` (${g.vat_category})` : ''}
                </Text>
                <Text style={s.vBase}>{money(g.base)}</Text>
                <Text style={s.vAmount}>{money(g.vat)}</Text>
              </View>
            ))}
            {exemptions.map((e) => (
              <Text style={s.mention} key={e.text[lang]}>
                {e.text[lang]}
              </Text>
            ))}
          </View>
          <View style={s.totals}>
            <View style={s.totalRow}>
              <Text>{t.totalHt}</Text>
              <Text>{money(m.totals.total_ht)}</Text>
            </View>
            {m.totals.groups
              .filter((g) => g.vat_category === 'S')
              .map((g) => (
                <View style={s.totalRow} key={g.vat_rate}>
                  <Text style={s.muted}>{t.vatOn(rate(g.vat_rate), money(g.base))}</Text>
                  <Text>{money(g.vat)}</Text>
                </View>
              ))}
            <View style={s.totalRow}>
              <Text>{t.totalVat}</Text>
              <Text>{money(m.totals.total_tva)}</Text>
            </View>
            <View style={s.grandTotal}>
              <Text>{m.type === 'avoir' ? t.creditTotal : payable ? t.netToPay : t.totalTtc}</Text>
              <Text>{money(m.totals.total_ttc)}</Text>
            </View>
          </View>
        </View>

        {m.deposits.length > 0 && (
          <Section title={t.depositsDeducted}>
            {m.deposits.map((d) => (
              <Text key={d.id}>{t.depositLine(d.number, documentDay(d.issue_date, lang), money(d.total_ht), money(d.total_ttc))}</Text>
            ))}
          </Section>
        )}

        {m.type === 'devis' && (
          <Section title={t.payment}>
            {m.validity_date && <Text>{t.quoteValidity(documentDay(m.validity_date, lang))}</Text>}
            {m.deposit_request_percentage && m.deposit_request_amount !== null && (
              <Text>{t.depositRequested(rate(m.deposit_request_percentage), money(m.deposit_request_amount))}</Text>
            )}
            {m.execution_timeline && (
              <Text>
                {t.executionTimeline}{t.colon}{m.execution_timeline}
              </Text>
            )}
            {terms && (
              <Text>
                {t.paymentTerms}{t.colon}{terms}
              </Text>
            )}
            {method && (
              <Text>
                {t.paymentMethod}{t.colon}{method}
              </Text>
            )}
          </Section>
        )}

        {payable && (
          <Section title={t.payment}>
            {m.due_date && (
              <Text style={s.bold}>
                {t.dueDate}{t.colon}{documentDay(m.due_date, lang)}
              </Text>
            )}
            {terms && (
              <Text>
                {t.paymentTerms}{t.colon}{terms}
              </Text>
            )}
            {method && (
              <Text>
                {t.paymentMethod}{t.colon}{method}
              </Text>
            )}
            {(seller.iban || seller.bic) && (
              <Text>
                {t.bank}{t.colon}{lines(seller.iban && `IBAN ${seller.iban}`, seller.bic && `BIC ${seller.bic}`).join(' — ')}
              </Text>
            )}
            <Text>{m.discount_terms ? `${t.earlyDiscount}${t.colon}${m.discount_terms}` : t.noEarlyDiscount}</Text>
            {business ? (
              <>
                <Text style={s.legal}>{t.latePenalties(seller.penalty_rate ? rate(seller.penalty_rate) : null)}</Text>
                <Text style={s.legal}>{t.recoveryFee(money(seller.recovery_fee))}</Text>
              </>
            ) : (
              <Text style={s.legal}>{t.consumerPenalties}</Text>
            )}
          </Section>
        )}

        {m.notes && (
          <Section title={t.notes}>
            <Text>{m.notes}</Text>
          </Section>
        )}

        {m.type === 'devis' && (
          <View style={s.approval} wrap={false}>
            <Text style={s.bold}>{t.approval}</Text>
            <Text style={[s.muted, s.small]}>{t.approvalHint}</Text>
            <Text style={{ marginTop: 10 }}>{t.approvalDate}</Text>
            <Text style={{ marginTop: 6 }}>{t.approvalName}</Text>
          </View>
        )}

        </View>

        <View fixed style={s.footer}>
          <Text>{legalIdentity(seller, lang)}</Text>
          {seller.footer_mentions && <Text>{seller.footer_mentions}</Text>}
          <View style={s.between}>
            <Text style={s.bold}>
              {kind} — {number}
            </Text>
            {singlePage ? <Text>{t.page(1, 1)}</Text> : <Text render={({ pageNumber, totalPages }) => t.page(pageNumber, totalPages)} />}
          </View>
        </View>
      </Page>
    </Document>
  );
}
