import type { DocumentType } from '@/db/schema';

export type Language = 'fr' | 'en';

const LOCALES: Record<Language, string> = { fr: 'fr-FR', en: 'en-GB' };

const money = {
  fr: new Intl.NumberFormat(LOCALES.fr, { style: 'currency', currency: 'EUR' }),
  en: new Intl.NumberFormat(LOCALES.en, { style: 'currency', currency: 'EUR' }),
};
const days = {
  fr: new Intl.DateTimeFormat(LOCALES.fr, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }),
  en: new Intl.DateTimeFormat(LOCALES.en, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }),
};

/** 123456 → "1 234,56 €" (fr) or "€1,234.56" (en). Integer cents in, no float arithmetic beyond the display. */
export function formatAmount(cents: number, lang: Language): string {
  return money[lang].format(cents / 100);
}

/** A calendar day "2026-03-12" → "12 mars 2026" (fr) or "12 March 2026" (en), whatever the server's zone. */
export function formatDay(day: string, lang: Language): string {
  return days[lang].format(new Date(`${day}T00:00:00Z`));
}

/** "facture d’acompte" / "deposit invoice", for sentences. */
export const DOCUMENT_NOUN: Record<Language, Record<DocumentType, string>> = {
  fr: { devis: 'devis', facture: 'facture', acompte: 'facture d’acompte', avoir: 'avoir' },
  en: { devis: 'quote', facture: 'invoice', acompte: 'deposit invoice', avoir: 'credit note' },
};

/** Capitalized noun for subjects and headings: "Facture d’acompte", "Credit note". */
export function documentTitle(type: DocumentType, lang: Language): string {
  const noun = DOCUMENT_NOUN[lang][type];
  return noun.charAt(0).toUpperCase() + noun.slice(1);
}
