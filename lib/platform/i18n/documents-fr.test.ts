import { describe, expect, it } from 'vitest';
import { aDocument, agree, DOCUMENT_NOUNS, type DocumentKind, dayOrdinal, documentNoun, documentTitle, elides, ofDocument, ofName, theDocument, thisDocument } from './documents-fr';
import { formatDay } from '@/lib/platform/format';

// Every document type × every phrase, as a French reader expects it (issue 35, item 12).
const EXPECTED: Record<DocumentKind, Record<string, string>> = {
  devis: {
    noun: 'devis', title: 'Devis', this: 'ce devis', the: 'le devis', a: 'un devis', of: 'de devis',
    finalize: 'Finaliser ce devis ?', finalized: 'finalisé', paid: 'payé', sent: 'envoyé', created: 'créé', cancelled: 'annulé', draft: 'brouillon', history: 'Devis D-1 créé',
  },
  facture: {
    noun: 'facture', title: 'Facture', this: 'cette facture', the: 'la facture', a: 'une facture', of: 'de facture',
    finalize: 'Finaliser cette facture ?', finalized: 'finalisée', paid: 'payée', sent: 'envoyée', created: 'créée', cancelled: 'annulée', draft: 'brouillon', history: 'Facture F-1 créée',
  },
  acompte: {
    noun: 'facture d’acompte', title: 'Facture d’acompte', this: 'cette facture d’acompte', the: 'la facture d’acompte', a: 'une facture d’acompte', of: 'de facture d’acompte',
    finalize: 'Finaliser cette facture d’acompte ?', finalized: 'finalisée', paid: 'payée', sent: 'envoyée', created: 'créée', cancelled: 'annulée', draft: 'brouillon', history: 'Facture d’acompte AC-1 créée',
  },
  avoir: {
    noun: 'avoir', title: 'Avoir', this: 'cet avoir', the: 'l’avoir', a: 'un avoir', of: 'd’avoir',
    finalize: 'Finaliser cet avoir ?', finalized: 'finalisé', paid: 'payé', sent: 'envoyé', created: 'créé', cancelled: 'annulé', draft: 'brouillon', history: 'Avoir AV-1 créé',
  },
};

describe('a phrase about a document agrees with its noun', () => {
  it('covers every document type', () => {
    expect(Object.keys(DOCUMENT_NOUNS).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  for (const type of Object.keys(EXPECTED) as DocumentKind[]) {
    it(`${type}: noun, demonstrative, article, participles`, () => {
      const numbers = { devis: 'D-1', facture: 'F-1', acompte: 'AC-1', avoir: 'AV-1' };
      expect({
        noun: documentNoun(type),
        title: documentTitle(type),
        this: thisDocument(type),
        the: theDocument(type),
        a: aDocument(type),
        of: ofDocument(type),
        finalize: `Finaliser ${thisDocument(type)} ?`,
        finalized: agree(type, 'finalisé'),
        paid: agree(type, 'payé'),
        sent: agree(type, 'envoyé'),
        created: agree(type, 'créé'),
        cancelled: agree(type, 'annulé'),
        draft: agree(type, 'brouillon'),
        history: `${documentTitle(type)} ${numbers[type]} ${agree(type, 'créé')}`,
      }).toEqual(EXPECTED[type]);
    });
  }
});

describe('elision of « de »', () => {
  it('before a vowel, accented or capital, and a mute h', () => {
    expect(ofName('Atelier Lumière')).toBe('d’Atelier Lumière');
    expect(ofName('Éditions du Lac')).toBe('d’Éditions du Lac');
    expect(ofName('ORANGE')).toBe('d’ORANGE');
    expect(ofName('Institut Curie')).toBe('d’Institut Curie');
    expect(ofName('Hôtel du Parc')).toBe('d’Hôtel du Parc');
    expect(ofName('Hélène Martin')).toBe('d’Hélène Martin');
    expect(ofName('« Avenir »')).toBe('d’« Avenir »');
  });

  it('not before a consonant, an aspirated h, a y or a digit', () => {
    expect(ofName('Paraphe')).toBe('de Paraphe');
    expect(ofName('Hollande Travaux')).toBe('de Hollande Travaux');
    expect(ofName('Yannick Le Goff')).toBe('de Yannick Le Goff');
    expect(ofName('3M France')).toBe('de 3M France');
    expect(elides('')).toBe(false);
  });
});

describe('the first day of a month', () => {
  it('is « 1er », the others their number', () => {
    expect([1, 2, 15, 31].map(dayOrdinal)).toEqual(['1er', '2', '15', '31']);
  });

  it('a long French date says « 1er décembre 2026 »; English and the other days are unchanged', () => {
    expect(formatDay('2026-12-01', 'fr', 'long')).toBe('1er décembre 2026');
    expect(formatDay('2026-12-11', 'fr', 'long')).toBe('11 décembre 2026');
    expect(formatDay('2026-12-21', 'fr', 'long')).toBe('21 décembre 2026');
    expect(formatDay('2026-12-01', 'en', 'long')).toBe('1 December 2026');
    expect(formatDay('2026-12-01', 'fr')).toBe('01/12/2026');
  });
});
