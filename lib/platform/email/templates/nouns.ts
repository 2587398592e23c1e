import type { DocumentType } from '@/db/schema';
import type { Language } from '@/lib/platform/format';

export type { Language } from '@/lib/platform/format';

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
