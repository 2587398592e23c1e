import type { DocumentType } from '@/db/schema';
import type { Language } from '@/lib/platform/format';
import { documentNoun } from '@/lib/platform/i18n';

export type { Language } from '@/lib/platform/format';

/** "facture d’acompte" / "deposit invoice", for sentences. */
export const DOCUMENT_NOUN: Record<Language, Record<DocumentType, string>> = {
  // The French nouns are lib/platform/i18n's, with their gender (thisDocument, agree…).
  fr: { devis: documentNoun('devis'), facture: documentNoun('facture'), acompte: documentNoun('acompte'), avoir: documentNoun('avoir') },
  en: { devis: 'quote', facture: 'invoice', acompte: 'deposit invoice', avoir: 'credit note' },
};

/** Capitalized noun for subjects and headings: "Facture d’acompte", "Credit note". */
export function documentTitle(type: DocumentType, lang: Language): string {
  const noun = DOCUMENT_NOUN[lang][type];
  return noun.charAt(0).toUpperCase() + noun.slice(1);
}
