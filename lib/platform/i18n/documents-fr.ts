/*
 * How a French phrase names a document (docs/conventions.md, "How to write a phrase about a document"): its noun and
 * gender, the demonstrative and the article, the participles that agree with it, and the elision of « de » before a
 * vowel or a mute h (« d’avoir », « d’Atelier Lumière »). Pages, e-mails and the PDF build their phrases with these,
 * never « ce ${type} » by hand: « ce facture d’acompte » and « ce avoir » were written so (issue 35, item 12).
 */

/** The document types (db/schema/billing's DocumentType, repeated here: this catalogue imports nothing). */
export type DocumentKind = 'devis' | 'facture' | 'acompte' | 'avoir';

export const DOCUMENT_NOUNS: Readonly<Record<DocumentKind, { noun: string; gender: 'm' | 'f' }>> = {
  devis: { noun: 'devis', gender: 'm' },
  facture: { noun: 'facture', gender: 'f' },
  acompte: { noun: 'facture d’acompte', gender: 'f' },
  avoir: { noun: 'avoir', gender: 'm' },
};

const feminine = (type: DocumentKind) => DOCUMENT_NOUNS[type].gender === 'f';
const capitalized = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

// Mute h: the words an h begins that elide (« l’hôtel », « d’Hélène »), as prefixes; any other h is aspirated
// (« de Hollande », « le haut »), the safe default for a name. Y is not elided (« de Yannick »).
const MUTE_H = ['habil', 'habit', 'harmon', 'hebdo', 'héberg', 'hectare', 'hélène', 'herbe', 'hérit', 'heure', 'heureu', 'hiver', 'histoire', 'historique', 'homme', 'homolog', 'honnê', 'honor', 'hôpital', 'horaire', 'horizon', 'horlog', 'hospital', 'hôtel', 'huile', 'huissier', 'humain', 'humanit', 'humeur', 'humour', 'hygièn', 'hypoth'];

/** Whether « de », « le », « la » elide before this word: a vowel (accented or not, any case) or a mute h. */
export function elides(word: string): boolean {
  const w = word.trimStart().replace(/^[«"“'’(\s]+/, '').toLowerCase();
  if (/^[aeiouàâäéèêëîïôöùûüæœ]/.test(w)) return true;
  return w.startsWith('h') && MUTE_H.some((prefix) => w.startsWith(prefix));
}

/** « de Paraphe », « d’Atelier Lumière », « d’Hélène Martin »: « de » before a name or a word. */
export const ofName = (name: string) => (elides(name) ? `d’${name.trimStart()}` : `de ${name}`);

/** « devis », « facture d’acompte »: the noun inside a sentence. */
export const documentNoun = (type: DocumentKind) => DOCUMENT_NOUNS[type].noun;

/** « Devis », « Facture d’acompte »: the noun opening a title or a label. */
export const documentTitle = (type: DocumentKind) => capitalized(documentNoun(type));

/** « ce devis », « cette facture », « cette facture d’acompte », « cet avoir ». */
export function thisDocument(type: DocumentKind): string {
  const noun = documentNoun(type);
  return `${feminine(type) ? 'cette' : elides(noun) ? 'cet' : 'ce'} ${noun}`;
}

/** « le devis », « la facture », « l’avoir ». */
export function theDocument(type: DocumentKind): string {
  const noun = documentNoun(type);
  return elides(noun) ? `l’${noun}` : `${feminine(type) ? 'la' : 'le'} ${noun}`;
}

/** « un devis », « une facture d’acompte ». */
export const aDocument = (type: DocumentKind) => `${feminine(type) ? 'une' : 'un'} ${documentNoun(type)}`;

/** « de devis », « de facture », « d’avoir »: after a noun (« Brouillon d’avoir »). */
export const ofDocument = (type: DocumentKind) => ofName(documentNoun(type));

/**
 * A word agreeing with the document: a past participle (« finalisé », « payé », « envoyé », « créé », « annulé »)
 * takes an e after a feminine noun (« finalisée », « créée »); any other word (« brouillon », « paiement reçu ») is kept.
 */
export const agree = (type: DocumentKind, word: string) => (feminine(type) && word.endsWith('é') ? `${word}e` : word);

/** « 1er », « 2 », « 31 »: a day of the month as French writes it (« le 1er décembre », « le 15 »). */
export const dayOrdinal = (day: number) => (day === 1 ? '1er' : String(day));
