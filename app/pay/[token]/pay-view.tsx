import { formatDay, formatDecimal, formatMoney, formatRate, type Language } from '@/lib/platform/format';
import { PAY_TEXTS, type PayLine, type PayPage, type PaySeller, type PayTexts, type ReturnNotice } from '@/lib/domain/payments';
import { Button, DataTable, DownloadButton } from '@/components/ui';
import { TransferDetails } from './transfer-details';

/**
 * The payer's page, without JavaScript. First what is asked — the document, the amount due and the ways to pay (one
 * plain form per online method posting to /pay/<token>/checkout, and the transfer) — then the transfer's details with
 * its QR code, then the document itself: the seller, its lines and totals, what was paid, the PDF. Pure: the page
 * loads the model.
 */
export function PayView({ token, page, lang, notice }: { token: string; page: PayPage; lang: Language; notice: ReturnNotice | null }) {
  const t = PAY_TEXTS[lang];
  const doc = page.document;
  const money = (cents: number) => formatMoney(cents, lang);
  // Back from Checkout with a payment made or on its way: the notice says so, nothing more is asked.
  const asking = notice !== 'received' && notice !== 'processing';
  return (
    <main className="pay-page" lang={t.htmlLang}>
      <nav className="pay-lang" aria-label={lang === 'fr' ? 'Langue' : 'Language'}>
        <a href={`/pay/${token}?lang=${t.switchTo.href}`} hrefLang={t.switchTo.href} lang={t.switchTo.href}>
          {t.switchTo.label}
        </a>
      </nav>
      {notice && <Notice t={t} notice={notice} />}
      <section className="card pay-summary" aria-labelledby="pay-title">
        <div className="pay-from">
          {page.seller.logo_data_url && (
            // biome-ignore lint/performance/noImgElement: a data URL from the org's settings, nothing for next/image to optimise
            <img className="pay-logo" src={page.seller.logo_data_url} alt={t.logo(page.seller.name)} />
          )}
          <p>
            <span className="muted pay-issued-by">{t.issuedBy}</span> <span className="pay-seller-name">{page.seller.name}</span>
          </p>
        </div>
        <h1 id="pay-title">
          {t.kind[doc.type]} {doc.number}
        </h1>
        {doc.title && <p>{doc.title}</p>}
        {asking && <Payment token={token} page={page} t={t} lang={lang} />}
      </section>
      {asking && page.transfer && <TransferDetails transfer={page.transfer} seller={page.seller.name} t={t} lang={lang} />}
      <section className="card" aria-labelledby="pay-details">
        <h2 id="pay-details">{t.linesCaption}</h2>
        <Seller seller={page.seller} t={t} lang={lang} />
        <dl className="props pay-dates">
          <dt>{t.issueDate}</dt>
          <dd>{formatDay(doc.issue_date, lang, 'long')}</dd>
          {doc.due_date && (
            <>
              <dt>{t.dueDate}</dt>
              <dd>{formatDay(doc.due_date, lang, 'long')}</dd>
            </>
          )}
        </dl>
        <DataTable
          label={t.linesCaption}
          className="pay-lines"
          columns={[
            { key: 'description', header: t.description },
            { key: 'amount', header: t.amountHt, num: true },
          ]}
          rows={doc.lines}
          rowKey={(_, i) => i}
          // The lines are frozen and in their printed order: their position keys them.
          renderRow={(line) => <Line line={line} t={t} lang={lang} />}
        />
        <dl className="totals">
          <dt>{t.totalHt}</dt>
          <dd>{money(doc.total_ht)}</dd>
          <dt>{t.totalTva}</dt>
          <dd>{money(doc.total_tva)}</dd>
          <dt>{t.totalTtc}</dt>
          <dd>{money(doc.total_ttc)}</dd>
          {page.paid > 0 && (
            <>
              <dt>{t.alreadyPaid}</dt>
              <dd>{money(page.paid)}</dd>
            </>
          )}
          <dt className="grand">{t.balance}</dt>
          <dd className="grand">{money(page.balance)}</dd>
        </dl>
        <p className="pay-pdf">
          {doc.pdf_ready ? (
            <DownloadButton href={`/pay/${token}/pdf${lang === 'en' ? '?lang=en' : ''}`} download>
              {t.pdf}
            </DownloadButton>
          ) : (
            <span className="muted">{t.pdfPending}</span>
          )}
        </p>
      </section>
    </main>
  );
}

function Notice({ t, notice }: { t: PayTexts; notice: ReturnNotice }) {
  const { title, text } = t.notice[notice];
  const tone = notice === 'received' ? 'notice-success' : 'notice-warning';
  return (
    <div className={`notice ${tone}`} role="status">
      <strong>{title}</strong>
      <p>{text}</p>
    </div>
  );
}

function Seller({ seller, t, lang }: { seller: PaySeller; t: PayTexts; lang: Language }) {
  const form = [seller.legal_form, seller.share_capital_cents != null ? t.capital(formatMoney(seller.share_capital_cents, lang)) : null].filter(Boolean).join(' ');
  const address = [seller.address, [seller.postal_code, seller.city].filter(Boolean).join(' '), seller.country && seller.country !== 'FR' ? seller.country : null]
    .filter(Boolean)
    .join(', ');
  const ids = [
    seller.siren && `${t.siren} ${seller.siren}`,
    seller.siret && `${t.siret} ${seller.siret}`,
    seller.rcs && (/^rcs\b/i.test(seller.rcs) ? seller.rcs : `${t.rcs} ${seller.rcs}`),
    seller.vat_number && `${t.vatNumber} ${seller.vat_number}`,
  ].filter(Boolean);
  return (
    <div className="pay-seller">
      <div>
        <p className="muted pay-issued-by">{t.issuedBy}</p>
        <p className="pay-seller-name">{seller.name}</p>
        {(seller.legal_name && seller.legal_name !== seller.name) || form ? <p>{[seller.legal_name !== seller.name ? seller.legal_name : null, form].filter(Boolean).join(', ')}</p> : null}
        {address && <p>{address}</p>}
        {ids.length > 0 && <p className="muted">{ids.join(' · ')}</p>}
        {(seller.email || seller.phone) && <p className="muted">{[seller.email, seller.phone].filter(Boolean).join(' · ')}</p>}
      </div>
    </div>
  );
}

function Line({ line, t, lang }: { line: PayLine; t: PayTexts; lang: Language }) {
  const rate = `${t.vat} ${formatRate(line.vat_rate, lang)}`;
  const detail =
    line.kind === 'discount'
      ? `${t.discount} · ${rate}`
      : `${formatDecimal(line.quantity, lang)}${line.unit ? ` ${unitName(line.unit, lang)}` : ''} × ${formatMoney(line.unit_price, lang)} · ${rate}`;
  return (
    <tr>
      <td>
        <span className="pay-line-name">{line.description}</span>
        {line.details && <span className="pay-line-details muted">{line.details}</span>}
        <span className="pay-line-details muted">{detail}</span>
      </td>
      <td className="num">{formatMoney(line.total_ht, lang)}</td>
    </tr>
  );
}

const UNITS: Record<string, Record<Language, string>> = {
  HUR: { fr: 'h', en: 'h' },
  DAY: { fr: 'j', en: 'd' },
  WEE: { fr: 'sem.', en: 'wk' },
  MON: { fr: 'mois', en: 'mo' },
  ANN: { fr: 'an', en: 'yr' },
  KGM: { fr: 'kg', en: 'kg' },
  MTR: { fr: 'm', en: 'm' },
  MTK: { fr: 'm²', en: 'm²' },
  LTR: { fr: 'l', en: 'l' },
  KMT: { fr: 'km', en: 'km' },
  MIN: { fr: 'min', en: 'min' },
};
/** A line's Rec 20 unit as a short word; "unit" and "piece" say nothing a quantity does not. */
const unitName = (code: string, lang: Language) => (code === 'C62' || code === 'H87' ? '' : (UNITS[code]?.[lang] ?? code));

function Payment({ token, page, t, lang }: { token: string; page: PayPage; t: PayTexts; lang: Language }) {
  if (page.state === 'paid') {
    return (
      <div className="notice notice-success">
        <strong>{t.paid}</strong> {t.paidThanks}
      </div>
    );
  }
  if (page.state === 'cancelled') return <p className="notice">{t.cancelled}</p>;
  if (page.processing) return <p className="notice notice-warning">{t.processingDebit}</p>;
  const due = (
    <div className="pay-due">
      <p className="pay-amount">{t.amountToPay(formatMoney(page.balance, lang))}</p>
      {page.document.due_date && <p className="muted">{t.dueBy(formatDay(page.document.due_date, lang, 'long'))}</p>}
    </div>
  );
  const toTransfer = page.transfer && (
    <DownloadButton href="#pay-transfer" variant={page.methods.length ? 'plain' : 'primary'}>
      {t.payByTransfer}
    </DownloadButton>
  );
  if (!page.methods.length) {
    return (
      <div className="stack">
        {due}
        <div className="notice notice-warning">
          <p>{t.unavailable}</p>
          <p>{page.transfer ? t.unavailableTransfer : t.unavailableContact(page.seller.name)}</p>
        </div>
        {toTransfer && <div className="pay-methods">{toTransfer}</div>}
      </div>
    );
  }
  const label = { card: t.payByCard, sepa_debit: t.payBySepa };
  return (
    <div className="stack">
      {due}
      <div className="pay-methods">
        {page.methods.map((method) => (
          <form key={method} method="post" action={`/pay/${token}/checkout`}>
            <input type="hidden" name="method" value={method} />
            <input type="hidden" name="lang" value={lang} />
            <Button type="submit" variant="primary">
              {label[method]}
            </Button>
          </form>
        ))}
        {toTransfer}
      </div>
      <p className="muted">{t.providerNote}</p>
    </div>
  );
}
