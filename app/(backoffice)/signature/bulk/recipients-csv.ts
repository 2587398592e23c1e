import { fieldErrors } from '@/lib/platform/errors';
import { hasControlCharacter } from '@/lib/platform/http/client';
import { BulkRecipient } from '@/lib/domain/signature';
import { parseCsv, toRecords } from '../../contacts/import/csv';
import { fold } from '../../contacts/text-values';

/** One recipient row of the file, as read, with its French problems (none: it will be sent). */
export interface RecipientRow {
  line: number;
  email: string;
  full_name: string;
  phone: string;
  errors: string[];
}

/** Column titles seen in French and English files (folded: lowercase, no accents, single spaces). */
const COLUMNS = {
  email: ['email', 'e mail', 'mail', 'courriel', 'adresse email', 'adresse e mail', 'adresse mail', 'email address'],
  full_name: ['nom complet', 'full name', 'full_name', 'name', 'nom et prenom', 'prenom et nom', 'prenom nom', 'signataire', 'destinataire'],
  first_name: ['prenom', 'first name', 'firstname', 'given name'],
  last_name: ['nom', 'nom de famille', 'last name', 'lastname', 'surname'],
  phone: ['telephone', 'tel', 'phone', 'mobile', 'portable', 'telephone mobile', 'numero de telephone', 'phone number'],
} as const;

/**
 * The recipients of a CSV file (a header row, then one recipient a row): an e-mail column, a name (one column, or
 * first and last name), a phone when signing by SMS. Each row is checked as the API checks it.
 */
export function readRecipients(text: string, sms: boolean): { rows: RecipientRow[]; problem?: string } {
  // A file is no form field (lib/platform/next/action.ts refuses those): a NUL would reach PostgreSQL with the results.
  const control = text.split(/\r\n|\n|\r/).findIndex(hasControlCharacter);
  if (control !== -1) return { rows: [], problem: `Le fichier contient un caractère de contrôle (ligne ${control + 1}) : enregistrez-le à nouveau en CSV.` };
  const { table, error } = parseCsv(text);
  if (error) return { rows: [], problem: `Le fichier CSV est illisible : ${error}.` };
  const { headers, rows } = toRecords(table);
  const at = (words: readonly string[]) => headers.findIndex((h) => words.includes(fold(h)));
  const col = { email: at(COLUMNS.email), full: at(COLUMNS.full_name), first: at(COLUMNS.first_name), last: at(COLUMNS.last_name), phone: at(COLUMNS.phone) };
  if (col.email === -1) return { rows: [], problem: 'Aucune colonne « e-mail » dans la première ligne du fichier.' };
  if (col.full === -1 && col.last === -1) return { rows: [], problem: 'Aucune colonne « nom » dans la première ligne du fichier.' };
  const cell = (cells: string[], i: number) => (i === -1 ? '' : (cells[i] ?? '').trim());
  const seen = new Set<string>();
  return {
    rows: rows.map(({ line, cells }) => {
      const full_name = col.full !== -1 ? cell(cells, col.full) : [cell(cells, col.first), cell(cells, col.last)].filter(Boolean).join(' ');
      const row: RecipientRow = { line, email: cell(cells, col.email), full_name, phone: cell(cells, col.phone), errors: [] };
      const parsed = BulkRecipient.safeParse({ email: row.email, full_name: row.full_name, phone: row.phone || undefined });
      if (!parsed.success) row.errors.push(...Object.values(fieldErrors(parsed.error)));
      else {
        if (sms && !parsed.data.phone) row.errors.push('Numéro de mobile obligatoire pour signer par SMS.');
        if (seen.has(parsed.data.email)) row.errors.push('Cette adresse figure déjà plus haut dans le fichier.');
        seen.add(parsed.data.email);
      }
      return row;
    }),
  };
}
