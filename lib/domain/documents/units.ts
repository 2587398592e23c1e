/**
 * UN/ECE Recommendation 20 unit codes: what a line stores (EN 16931 BT-130), and the catalogue's free unit
 * labels they come from. Isomorphic (no imports): the server fills lines from products with it, and the
 * back-office editor does the same when a product is picked.
 */

/** Catalogue unit labels → Rec 20 codes. */
const UNIT_CODES: Record<string, string> = {
  h: 'HUR',
  heure: 'HUR',
  heures: 'HUR',
  hour: 'HUR',
  hours: 'HUR',
  j: 'DAY',
  jour: 'DAY',
  jours: 'DAY',
  day: 'DAY',
  days: 'DAY',
  mois: 'MON',
  month: 'MON',
  semaine: 'WEE',
  week: 'WEE',
  an: 'ANN',
  année: 'ANN',
  year: 'ANN',
  pièce: 'H87',
  piece: 'H87',
  pc: 'H87',
  unité: 'C62',
  unit: 'C62',
  u: 'C62',
  forfait: 'C62',
  kg: 'KGM',
  g: 'GRM',
  m: 'MTR',
  m2: 'MTK',
  'm²': 'MTK',
  m3: 'MTQ',
  'm³': 'MTQ',
  l: 'LTR',
  litre: 'LTR',
  km: 'KMT',
};

/** A product's unit label as a Rec 20 code: a common label, or a label that already is a code; else null. */
export function unitCodeOf(label: string | null | undefined): string | null {
  if (!label) return null;
  const trimmed = label.trim();
  return UNIT_CODES[trimmed.toLowerCase()] ?? (/^[A-Z0-9]{2,3}$/.test(trimmed) ? trimmed : null);
}

/** The codes people use most, with the French word printed for them (editor choices, document pages). */
export const COMMON_UNITS: ReadonlyArray<{ code: string; label: string }> = [
  { code: 'C62', label: 'unité' },
  { code: 'H87', label: 'pièce' },
  { code: 'HUR', label: 'heure' },
  { code: 'DAY', label: 'jour' },
  { code: 'WEE', label: 'semaine' },
  { code: 'MON', label: 'mois' },
  { code: 'ANN', label: 'an' },
  { code: 'KGM', label: 'kg' },
  { code: 'GRM', label: 'g' },
  { code: 'MTR', label: 'm' },
  { code: 'MTK', label: 'm²' },
  { code: 'MTQ', label: 'm³' },
  { code: 'LTR', label: 'l' },
  { code: 'KMT', label: 'km' },
];

/** Words that take an s in the plural (the symbols and "mois" do not). */
const PLURALS = new Set(['unité', 'pièce', 'heure', 'jour', 'semaine', 'an']);

/**
 * "HUR" → "heure", or "heures" for a quantity of 2 or more (French puts the plural from 2 on: 1,5 heure);
 * an uncommon code is shown as is.
 */
export function unitLabel(code: string | null | undefined, quantity?: string): string {
  if (!code) return '';
  const label = COMMON_UNITS.find((u) => u.code === code)?.label ?? code;
  return quantity !== undefined && PLURALS.has(label) && Number.parseFloat(quantity) >= 2 ? `${label}s` : label;
}
