import type { BankTransfer, PayTexts } from '@/lib/domain/payments';
import { formatMoney, type Language } from '@/lib/platform/format';
import { friendlyIban } from '@/lib/platform/identifiers';

/** The QR code's quiet zone, in modules: the four that EPC069-12 (as ISO 18004) asks around the code. */
const QUIET = 4;

/**
 * « Payer par virement »: the org's bank details, the reference to quote (the invoice number) and the EPC QR code a
 * banking app scans to fill the transfer in. An inline SVG drawn on the server: no script, nothing fetched.
 */
export function TransferDetails({ transfer, seller, t, lang }: { transfer: BankTransfer; seller: string; t: PayTexts; lang: Language }) {
  const c = t.transfer;
  const amount = formatMoney(transfer.amount, lang);
  const side = transfer.qr.size + 2 * QUIET;
  return (
    <section className="card pay-transfer" id="pay-transfer" aria-labelledby="pay-transfer-heading">
      <h2 id="pay-transfer-heading">{c.heading}</h2>
      <p>{c.intro(amount)}</p>
      <div className="pay-transfer-body">
        <dl className="props pay-transfer-details">
          <dt>{c.beneficiary}</dt>
          <dd>{transfer.beneficiary}</dd>
          <dt>{c.iban}</dt>
          <dd className="pay-iban">{friendlyIban(transfer.iban)}</dd>
          {transfer.bic && (
            <>
              <dt>{c.bic}</dt>
              <dd>{transfer.bic}</dd>
            </>
          )}
          <dt>{c.amount}</dt>
          <dd>{amount}</dd>
          <dt>{c.reference}</dt>
          <dd>
            <strong className="pay-reference">{transfer.reference}</strong>
          </dd>
        </dl>
        <figure className="pay-qr">
          <svg role="img" aria-label={c.qrLabel} viewBox={`${-QUIET} ${-QUIET} ${side} ${side}`} width="176" height="176" shapeRendering="crispEdges">
            <rect x={-QUIET} y={-QUIET} width={side} height={side} fill="#fff" />
            <path d={transfer.qr.path} fill="#000" />
          </svg>
          <figcaption className="muted">{c.qrCaption}</figcaption>
        </figure>
      </div>
      <p className="muted">{c.referenceNote}</p>
      <p className="muted">{c.delay(seller)}</p>
    </section>
  );
}
