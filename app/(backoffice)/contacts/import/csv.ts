import Papa from 'papaparse';
import { CONTACT_FIELDS, type ContactField } from '@/lib/domain/contacts/client';
import { fold, fromText } from '../text-values';

/** A data row of the file with its spreadsheet row number (the header is row 1). */
export interface CsvRow {
  line: number;
  cells: string[];
}

/**
 * The file's text: UTF-8 when it is valid UTF-8 (BOM dropped), else Windows-1252, what Excel on a French
 * Windows writes by default. Decoding that as UTF-8 would turn every "é" into "�".
 */
export function decodeCsv(bytes: ArrayBuffer | Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

/**
 * The cells of a CSV text. The delimiter is the most frequent of ; , tab | in the header line (French Excel
 * writes ";", most other tools ","): a header rarely holds one, while papaparse's own guess is thrown off
 * by blank lines and multi-line cells.
 */
export function parseCsv(text: string): { table: string[][]; error?: string } {
  const header = text.split(/\r\n|\n|\r/).find((line) => line.trim() !== '') ?? '';
  const counts = [',', ';', '\t', '|'].map((d) => [d, header.split(d).length - 1] as const);
  const delimiter = counts.reduce((best, c) => (c[1] > best[1] ? c : best))[0];
  const result = Papa.parse<string[]>(text, { delimiter });
  const fatal = result.errors[0];
  return { table: result.data, error: fatal ? `ligne ${(fatal.row ?? 0) + 1} : ${fatal.message}` : undefined };
}

const isBlank = (cells: string[]) => cells.every((c) => c.trim() === '');

/** The header (first non-blank row) and the data rows after it, blank rows dropped but counted in row numbers. */
export function toRecords(table: string[][]): { headers: string[]; rows: CsvRow[] } {
  const start = table.findIndex((cells) => !isBlank(cells));
  if (start === -1) return { headers: [], rows: [] };
  const headers = table[start]!.map((h) => h.trim());
  const rows: CsvRow[] = [];
  for (let i = start + 1; i < table.length; i++) {
    const cells = table[i]!;
    if (!isBlank(cells)) rows.push({ line: i + 1, cells });
  }
  return { headers, rows };
}

/** Column titles seen in French and English exports (folded: lowercase, no accents, single spaces). */
const HEADER_WORDS: Record<ContactField, string[]> = {
  type: ['type', 'type de contact', 'contact type', 'type de client', 'categorie'],
  first_name: ['prenom', 'first name', 'firstname', 'given name', 'forename'],
  last_name: ['nom', 'nom de famille', 'last name', 'lastname', 'surname', 'family name', 'name'],
  company: ['societe', 'entreprise', 'raison sociale', 'denomination', 'denomination sociale', 'company', 'company name', 'organisation', 'organization', 'nom de l entreprise', 'nom de la societe'],
  email: ['email', 'e mail', 'mail', 'courriel', 'adresse email', 'adresse e mail', 'adresse mail', 'email address', 'e mail address'],
  phone: ['telephone', 'tel', 'phone', 'phone number', 'numero de telephone', 'mobile', 'portable', 'telephone mobile'],
  address: ['adresse', 'adresse postale', 'rue', 'address', 'street', 'street address', 'address line 1'],
  city: ['ville', 'commune', 'localite', 'city', 'town'],
  postal_code: ['code postal', 'cp', 'postal code', 'postcode', 'zip', 'zip code'],
  country: ['pays', 'code pays', 'country', 'country code'],
  siret: ['siret'],
  vat_intra: ['tva', 'tva intracommunautaire', 'tva intra', 'vat', 'vat number', 'vat intra', 'vat id'],
  default_payment_terms: ['conditions de paiement', 'delai de paiement', 'payment terms'],
  default_discount_terms: ['escompte', 'conditions d escompte', 'discount terms'],
  preferred_language: ['langue', 'langue preferee', 'language', 'preferred language'],
  reminder_opt_out: ['pas de relance', 'pas de relances', 'sans relance', 'sans relances', 'reminder opt out', 'no reminders'],
  marketing_consent: ['consentement', 'consentement marketing', 'opt in', 'optin', 'newsletter', 'marketing consent'],
  consent_source: ['source du consentement', 'source consentement', 'consent source'],
  legal_basis: ['base legale', 'legal basis'],
  lead_status: ['statut', 'statut commercial', 'etape', 'status', 'lead status'],
  lead_score: ['score', 'lead score', 'note du prospect'],
  notes: ['notes', 'note', 'commentaire', 'commentaires', 'remarques', 'comments', 'comment'],
  tags: ['tags', 'tag', 'etiquettes', 'etiquette', 'labels', 'groupes', 'segments'],
};

const BY_WORD = new Map<string, ContactField>(
  CONTACT_FIELDS.flatMap((field) => [[fold(field), field] as const, ...HEADER_WORDS[field].map((w) => [w, field] as const)]),
);

/** The field a column title most likely holds ("Prénom" → first_name, "E-mail" → email), or null. */
export function guessField(header: string): ContactField | null {
  const key = fold(header);
  // "N° SIRET", "Numéro de TVA", "Le prénom": the word that matters comes after.
  return BY_WORD.get(key) ?? BY_WORD.get(key.replace(/^(numero de|numero d|numero|num|no|n|le|la|l|the)\s/, '')) ?? null;
}

/** One field per column at most: a later column guessed as an already taken field is left unmapped. */
export function guessMapping(headers: string[]): Array<ContactField | null> {
  const taken = new Set<ContactField>();
  return headers.map((header) => {
    const field = guessField(header);
    if (!field || taken.has(field)) return null;
    taken.add(field);
    return field;
  });
}

/** The fields mapped by more than one column (the import must not guess which one wins). */
export function mappedTwice(mapping: Array<ContactField | null>): ContactField[] {
  return [...new Set(mapping.filter((f, i): f is ContactField => f !== null && mapping.indexOf(f) !== i))];
}

/** The import row of a CSV row: the mapped cells turned into payload values; blank cells are left out. */
export function rowToPayload(cells: string[], mapping: Array<ContactField | null>): Record<string, unknown> {
  const payload: Record<string, unknown> = {};
  mapping.forEach((field, column) => {
    if (!field) return;
    const value = fromText(field, cells[column] ?? '');
    if (value !== null) payload[field] = value;
  });
  return payload;
}

/**
 * Splits rows into the batches sent to the server: at most `maxRows` (the import's limit) and, past the
 * first row of a batch, at most `maxBytes` of JSON (a server action's request body is capped).
 */
export function chunkRows<T>(rows: T[], maxRows: number, maxBytes: number): T[][] {
  const chunks: T[][] = [];
  let current: T[] = [];
  const encoder = new TextEncoder();
  let bytes = 2;
  for (const row of rows) {
    const size = encoder.encode(JSON.stringify(row)).length + 1;
    if (current.length > 0 && (current.length >= maxRows || bytes + size > maxBytes)) {
      chunks.push(current);
      current = [];
      bytes = 2;
    }
    current.push(row);
    bytes += size;
  }
  if (current.length) chunks.push(current);
  return chunks;
}
