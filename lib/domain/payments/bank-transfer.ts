import { create as createQr } from 'qrcode';
import { xmlAmount } from '@/lib/platform/format';

/**
 * Paying an invoice by SEPA credit transfer from the /pay page: the org's bank details, the reference to quote, and
 * the EPC QR code ("SEPA Credit Transfer" QR, European Payments Council EPC069-12) that a banking app scans to fill
 * the transfer in. Pure: no database, no provider; the QR is drawn on the server (no script, nothing fetched).
 */

export interface TransferInput {
  /** Who receives the money: the seller's name as printed (the account holder, for the payer's bank). */
  beneficiary: string;
  /** The org's IBAN, any spacing. */
  iban: string;
  bic: string | null;
  /** What is left to pay, in cents. */
  amount: number;
  /** The invoice's number: the remittance information the org matches the transfer with. */
  reference: string;
}

export interface BankTransfer {
  beneficiary: string;
  /** Electronic format (no spaces, upper case), as the payload carries it. */
  iban: string;
  bic: string | null;
  amount: number;
  reference: string;
  /** The EPC QR payload, as encoded in the code. */
  payload: string;
  /** The QR code: `size` modules square, the dark ones drawn by `path` (1 unit = 1 module, no quiet zone). */
  qr: { size: number; path: string };
}

/** EPC069-12 limits: characters per field, the amount's range (cents), bytes of the whole payload. */
export const EPC_LIMITS = { name: 70, iban: 34, bic: 11, remittance: 140, minAmount: 1, maxAmount: 99_999_999_999, payloadBytes: 331 } as const;

/** A field as the payload allows it: one line (no control character), trimmed, at most `max` characters. */
function field(value: string, max: number): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is taken out
  return [...value.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim()].slice(0, max).join('').trim();
}

const compact = (s: string) => s.replace(/\s+/g, '').toUpperCase();

/**
 * The EPC QR payload, version 002, UTF-8 (character set 1), SCT: the lines BCD, 002, 1, SCT, BIC (may be empty in
 * version 002), name, IBAN, amount (EUR12.34; omitted outside EUR0.01–EUR999999999.99, the payer types it), purpose
 * (empty), structured reference (empty: an invoice number is no ISO 11649 creditor reference), unstructured
 * remittance (the invoice number), separated by LF; the trailing empty elements are left out. A name whose UTF-8
 * bytes would take the payload past 331 bytes is shortened.
 */
export function epcPayload(input: TransferInput): string {
  const amount = input.amount >= EPC_LIMITS.minAmount && input.amount <= EPC_LIMITS.maxAmount ? `EUR${xmlAmount(input.amount)}` : '';
  const build = (name: string) =>
    ['BCD', '002', '1', 'SCT', compact(input.bic ?? '').slice(0, EPC_LIMITS.bic), name, compact(input.iban).slice(0, EPC_LIMITS.iban), amount, '', '', field(input.reference, EPC_LIMITS.remittance)]
      .join('\n')
      .replace(/\n+$/, '');
  let name = [...field(input.beneficiary, EPC_LIMITS.name)];
  while (name.length > 1 && Buffer.byteLength(build(name.join('')), 'utf8') > EPC_LIMITS.payloadBytes) name = name.slice(0, -1);
  return build(name.join('').trim());
}

/** The dark modules of `payload`'s QR code (error correction M, as EPC069-12 asks) as one SVG path, row by row. */
export function qrPath(payload: string): BankTransfer['qr'] {
  const { modules } = createQr(payload, { errorCorrectionLevel: 'M' });
  // BitMatrix.get takes (row, column).
  const dark = (x: number, y: number) => Boolean(modules.get(y, x));
  const parts: string[] = [];
  for (let y = 0; y < modules.size; y++) {
    let x = 0;
    while (x < modules.size) {
      if (!dark(x, y)) {
        x++;
        continue;
      }
      // A run of dark modules is one rectangle: fewer path commands than one square each.
      const start = x;
      while (x < modules.size && dark(x, y)) x++;
      parts.push(`M${start} ${y}h${x - start}v1h-${x - start}z`);
    }
  }
  return { size: modules.size, path: parts.join('') };
}

/** The transfer the /pay page offers, or null when the org has no IBAN or nothing is left to pay. */
export function bankTransfer(input: TransferInput): BankTransfer | null {
  const iban = compact(input.iban);
  if (!iban || input.amount <= 0) return null;
  const payload = epcPayload(input);
  return {
    beneficiary: field(input.beneficiary, EPC_LIMITS.name),
    iban,
    bic: input.bic ? compact(input.bic) : null,
    amount: input.amount,
    reference: input.reference,
    payload,
    qr: qrPath(payload),
  };
}
