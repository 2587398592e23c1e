import { csvAmount, xmlDate } from '@/lib/platform/format';
import type { FecEntry } from './fec-entries';

/** The 18 columns of art. A47 A-1 of the LPF (BOI-CF-IOR-60-40-20), in this order. */
export const FEC_COLUMNS = [
  'JournalCode',
  'JournalLib',
  'EcritureNum',
  'EcritureDate',
  'CompteNum',
  'CompteLib',
  'CompAuxNum',
  'CompAuxLib',
  'PieceRef',
  'PieceDate',
  'EcritureLib',
  'Debit',
  'Credit',
  'EcritureLet',
  'DateLet',
  'ValidDate',
  'Montantdevise',
  'Idevise',
] as const;

export interface FecFileOptions {
  /** The company's SIREN (9 digits): the file's name starts with it. */
  siren: string;
  /** The closing date of the fiscal year (YYYY-MM-DD), or the period's end for a partial file. */
  closingDate: string;
}

/** A field never holds the separator nor a line break: they would shift the columns. */
const field = (value: string) => value.replace(/[\t\r\n]+/g, ' ').trim();

/**
 * The FEC text: a header line with the 18 column names, then one line per entry line; tab-separated, CRLF, dates
 * YYYYMMDD, amounts with a decimal comma and no grouping, both Debit and Credit given (0,00 on the other side).
 * Lettering is left empty (the accountant's tool letters 411 from PieceRef); the amounts are in euros, so no currency columns.
 */
export function fecFile(entries: readonly FecEntry[], { siren, closingDate }: FecFileOptions): { name: string; content: string } {
  if (!/^\d{9}$/.test(siren)) throw new RangeError('A FEC file is named after a 9-digit SIREN.');
  const rows = entries.flatMap((e) =>
    e.lines.map((l) => [
      e.journalCode,
      e.journalLabel,
      e.number,
      xmlDate(e.date),
      l.account,
      l.accountLabel,
      l.auxAccount,
      l.auxLabel,
      e.pieceRef,
      xmlDate(e.date),
      l.label,
      csvAmount(l.debit),
      csvAmount(l.credit),
      '',
      '',
      xmlDate(e.validDate),
      '',
      '',
    ]),
  );
  const content = [FEC_COLUMNS, ...rows].map((r) => r.map(field).join('\t')).join('\r\n');
  return { name: `${siren}FEC${xmlDate(closingDate)}.txt`, content: `${content}\r\n` };
}
