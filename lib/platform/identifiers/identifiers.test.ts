import { describe, expect, it } from 'vitest';
import { frenchVatNumber, identifierProblems, isPlausibleVatNumber, isValidBic, isValidIban, isValidSiren, isValidSiret } from '.';

describe('SIREN and SIRET keys', () => {
  it('accepts real numbers and refuses one digit changed', () => {
    expect(isValidSiren('552032534')).toBe(true);
    expect(isValidSiren('552032535')).toBe(false);
    expect(isValidSiren('55203253')).toBe(false);
    expect(isValidSiret('55203253400646')).toBe(true);
    expect(isValidSiret('73282932000074')).toBe(true);
    expect(isValidSiret('73282932000075')).toBe(false);
    expect(isValidSiret('7328293200007')).toBe(false);
  });

  it('applies La Poste’s own rule to its establishments (sum of the digits a multiple of 5)', () => {
    // 3+5+6+1+2+3+4 = 24 → +1 makes 25: valid for La Poste although Luhn refuses it.
    const siret = '35600000012341';
    expect([...siret].reduce((s, d) => s + Number(d), 0) % 5).toBe(0);
    expect(isValidSiret(siret)).toBe(true);
    expect(isValidSiret('35600000012342')).toBe(false);
    // The same digits under another SIREN follow Luhn.
    expect(isValidSiret('35600000112341')).toBe(false);
  });
});

describe('intra-EU VAT numbers', () => {
  it('computes and checks the French key from the SIREN', () => {
    expect(frenchVatNumber('732829320')).toBe('FR44732829320');
    expect(isPlausibleVatNumber('FR44732829320')).toBe(true);
    expect(isPlausibleVatNumber('fr 44 732 829 320')).toBe(true);
    expect(isPlausibleVatNumber('FR45732829320')).toBe(false);
    expect(isPlausibleVatNumber('FR44732829321')).toBe(false);
  });

  it('checks only the shape of another country’s number', () => {
    expect(isPlausibleVatNumber('DE123456789')).toBe(true);
    expect(isPlausibleVatNumber('DE1')).toBe(false);
    expect(isPlausibleVatNumber('123456789')).toBe(false);
  });
});

describe('IBAN and BIC', () => {
  it('checks the IBAN’s check digits, spaces allowed', () => {
    expect(isValidIban('FR7630006000011234567890189')).toBe(true);
    expect(isValidIban('FR76 3000 6000 0112 3456 7890 189')).toBe(true);
    expect(isValidIban('FR7630006000011234567890188')).toBe(false);
    expect(isValidBic('AGRIFRPP')).toBe(true);
    expect(isValidBic('AGRIFRPPXXX')).toBe(true);
    expect(isValidBic('AGRI')).toBe(false);
  });
});

describe('identifierProblems', () => {
  it('says in French what is wrong, by field, and nothing when all is right', () => {
    expect(identifierProblems({ siren: '732829320', siret: '73282932000074', vat_number: 'FR44732829320', iban: 'FR7630006000011234567890189', bic: 'AGRIFRPP' })).toEqual({});
    expect(identifierProblems({ siret: '73282932000075', vat_intra: 'FR45732829320', iban: 'FR7630006000011234567890188' })).toEqual({
      siret: expect.stringContaining('clé de contrôle'),
      vat_intra: expect.stringContaining('TVA français'),
      iban: expect.stringContaining('IBAN'),
    });
    expect(identifierProblems({ siren: '732829320', siret: '55203253400646' })).toEqual({ siret: expect.stringContaining('pas celui d’un établissement') });
    expect(identifierProblems({ siren: null, siret: '', iban: null })).toEqual({});
  });
});
