import { describe, expect, it } from 'vitest';
import { printableWith } from './fonts';
import { buyerElectronicAddress, documentTypeCode, paymentTerms, vatOnDebits, vatTaxPoint } from '@/lib/domain/facturx';
import type { Buyer, RenderModel, Seller } from './model';

const groups = (...categories: string[]) => ({ groups: categories.map((vat_category) => ({ vat_category })) }) as unknown as RenderModel['totals'];

describe('option for VAT on debits and BT-8', () => {
  const doc = (o: Partial<Pick<RenderModel, 'type' | 'operation_nature' | 'vat_exigibility' | 'totals'>>) => ({
    type: 'facture' as const,
    operation_nature: 'services' as const,
    vat_exigibility: 'debits' as const,
    totals: groups('S'),
    ...o,
  });

  it('applies to services and mixed operations taxed on debits that bear VAT, on invoices, deposits and credit notes', () => {
    for (const type of ['facture', 'acompte', 'avoir'] as const) {
      for (const operation_nature of ['services', 'mixte', null] as const) {
        expect(vatOnDebits(doc({ type, operation_nature })), `${type} ${operation_nature}`).toBe(true);
        expect(vatTaxPoint(doc({ type, operation_nature }))).toBe('5');
      }
    }
  });

  it('never applies to goods, quotes, services taxed on receipts or documents without VAT', () => {
    expect(vatOnDebits(doc({ operation_nature: 'biens' }))).toBe(false);
    expect(vatTaxPoint(doc({ operation_nature: 'biens' }))).toBeNull();
    expect(vatOnDebits(doc({ type: 'avoir', operation_nature: 'biens' }))).toBe(false);
    expect(vatOnDebits(doc({ type: 'devis' }))).toBe(false);
    expect(vatOnDebits(doc({ vat_exigibility: 'encaissements' }))).toBe(false);
    expect(vatTaxPoint(doc({ vat_exigibility: 'encaissements' }))).toBe('72');
    expect(vatOnDebits(doc({ vat_exigibility: null }))).toBe(false);
    expect(vatOnDebits(doc({ totals: groups('AE') }))).toBe(false);
    expect(vatTaxPoint(doc({ totals: groups('E', 'Z') }))).toBeNull();
  });
});

describe('payment terms agree with the due date', () => {
  const terms = (type: RenderModel['type'], payment_terms: string | null, due_date: string | null, language: 'fr' | 'en' = 'fr') =>
    paymentTerms({ type, language, issue_date: '2026-03-10', due_date, payment_terms });

  it('keeps stored terms that give the due date or state no delay', () => {
    expect(terms('facture', '30 jours', '2026-04-09')).toBe('30 jours');
    expect(terms('facture', 'Net 45', '2026-04-24')).toBe('Net 45');
    expect(terms('facture', '45 jours fin de mois', '2026-04-30')).toBe('45 jours fin de mois');
    expect(terms('facture', 'Paiement à réception', '2026-03-10')).toBe('Paiement à réception');
    expect(terms('facture', 'Selon échéancier convenu', '2026-05-10')).toBe('Selon échéancier convenu');
  });

  it('says the terms from the dates when the stored ones contradict them, or when there are none', () => {
    expect(terms('acompte', '30 jours', '2026-03-10')).toBe('Payable à réception');
    expect(terms('acompte', '30 jours', '2026-03-01')).toBe('Payable à réception');
    expect(terms('acompte', '30 jours', '2026-03-10', 'en')).toBe('Payable upon receipt');
    expect(terms('facture', '30 jours', '2026-04-24')).toBe('Paiement à 45 jours');
    expect(terms('facture', 'à réception', '2026-04-09', 'en')).toBe('Payment within 30 days');
    expect(terms('facture', null, '2026-04-09')).toBe('Paiement à 30 jours');
  });

  it('leaves quotes, credit notes and documents without due date as stored', () => {
    expect(terms('devis', '30 jours', null)).toBe('30 jours');
    expect(terms('avoir', '30 jours', null)).toBe('30 jours');
    expect(terms('facture', '30 jours', null)).toBe('30 jours');
    expect(terms('facture', '  ', null)).toBeNull();
  });
});

describe('BT-3 and BT-49', () => {
  it('types the credit note of a deposit invoice 503', () => {
    const credited = (type: RenderModel['type']) => ({ type }) as RenderModel['credited'];
    expect(documentTypeCode({ type: 'avoir', credited: credited('acompte') })).toBe('503');
    expect(documentTypeCode({ type: 'avoir', credited: credited('facture') })).toBe('381');
    expect(documentTypeCode({ type: 'facture', credited: null })).toBe('380');
    expect(documentTypeCode({ type: 'acompte', credited: null })).toBe('386');
    expect(documentTypeCode({ type: 'devis', credited: null })).toBeNull();
  });

  it("gives a consumer without e-mail the seller's address, never a business", () => {
    const seller = { siren: '732829320', email: 'facturation@example.fr' } as Seller;
    const buyer = (o: Partial<Buyer>) => ({ type: 'professionnel', email: null, ...o }) as Buyer;
    expect(buyerElectronicAddress(buyer({}), '552032534', seller)).toEqual({ scheme: '0225', value: '552032534' });
    expect(buyerElectronicAddress(buyer({ email: 'a@b.fr' }), null, seller)).toEqual({ scheme: 'EM', value: 'a@b.fr' });
    expect(buyerElectronicAddress(buyer({ type: 'particulier', email: 'c@d.fr' }), null, seller)).toEqual({ scheme: 'EM', value: 'c@d.fr' });
    expect(buyerElectronicAddress(buyer({ type: 'particulier' }), null, seller)).toEqual({ scheme: '0225', value: '732829320' });
    expect(buyerElectronicAddress(buyer({ type: 'particulier' }), null, { ...seller, siren: null })).toEqual({ scheme: 'EM', value: 'facturation@example.fr' });
    expect(buyerElectronicAddress(buyer({}), null, seller)).toBeNull();
  });
});

describe('printable text', () => {
  const latin = { hasGlyphForCodePoint: (cp: number) => cp < 0x500 };
  const emoji = { hasGlyphForCodePoint: (cp: number) => cp === 0x1f4a1 };

  it('keeps what a font has, drops invisible joiners and selectors, replaces the rest', () => {
    // A line feed is kept (the line breaks there, no glyph drawn); a tab, which no font draws, is a space (issue 34).
    expect(printableWith([latin], 'Déjà vu\nligne 2\tΩ')).toBe('Déjà vu\nligne 2 Ω');
    expect(printableWith([latin], 'e\u0301')).toBe('é');
    expect(printableWith([latin, emoji], 'Idée 💡\u200d\ufe0f 한')).toBe('Idée 💡 ?');
    expect(printableWith([latin], '💡')).toBe('?');
  });
});
