import { describe, expect, it } from 'vitest';
import { CONTACT_FIELDS, parseImportRow } from '@/lib/domain/contacts';
import { FIELD_LABELS } from '../labels';
import { chunkRows, decodeCsv, guessField, guessMapping, mappedTwice, parseCsv, rowToPayload, toRecords } from './csv';

describe('guessField', () => {
  it.each([
    ['Prénom', 'first_name'],
    ['NOM', 'last_name'],
    ['Nom de famille', 'last_name'],
    ['Société', 'company'],
    ['Raison sociale', 'company'],
    ['E-mail', 'email'],
    ['Adresse e-mail', 'email'],
    ['Courriel', 'email'],
    ['Téléphone', 'phone'],
    ['Tél.', 'phone'],
    ['N° SIRET', 'siret'],
    ['Numéro de TVA', 'vat_intra'],
    ['siret', 'siret'],
    ['N° TVA intracommunautaire', 'vat_intra'],
    ['Code postal', 'postal_code'],
    ['CP', 'postal_code'],
    ['Ville', 'city'],
    ['Pays', 'country'],
    ['Étiquettes', 'tags'],
    ['Statut', 'lead_status'],
    ['First Name', 'first_name'],
    ['last_name', 'last_name'],
    ['Company', 'company'],
    ['Email Address', 'email'],
    ['ZIP code', 'postal_code'],
    ['marketing_consent', 'marketing_consent'],
    ['Base légale', 'legal_basis'],
    ['  Le Prénom ', 'first_name'],
  ])('%s → %s', (header, field) => {
    expect(guessField(header)).toBe(field);
  });

  it('recognizes every label of the back-office (the downloadable template uses them)', () => {
    for (const field of CONTACT_FIELDS) expect(guessField(FIELD_LABELS[field])).toBe(field);
  });

  it('recognizes the API field names', () => {
    for (const field of CONTACT_FIELDS) expect(guessField(field)).toBe(field);
  });

  it('leaves unknown columns unmapped', () => {
    expect(guessField('SIREN')).toBeNull();
    expect(guessField('Chiffre d’affaires')).toBeNull();
    expect(guessField('')).toBeNull();
  });
});

describe('guessMapping', () => {
  it('maps each field once: a second column for a taken field is left out', () => {
    expect(guessMapping(['Nom', 'Prénom', 'Email', 'Mail', 'Divers'])).toEqual(['last_name', 'first_name', 'email', null, null]);
  });

  it('mappedTwice names the fields two columns claim', () => {
    expect(mappedTwice(['email', null, 'email', 'company', null])).toEqual(['email']);
    expect(mappedTwice(['email', null, null])).toEqual([]);
  });
});

describe('rowToPayload', () => {
  const mapping = guessMapping(['Nom', 'Société', 'E-mail', 'Consentement', 'Score', 'Étiquettes', 'Type', 'Statut', 'Ignorée']);

  it('turns French words into payload values and leaves blank cells out', () => {
    expect(rowToPayload(['Martin', '', ' JEANNE@EXAMPLE.FR ', 'oui', '40', 'vip; salon', 'Particulier', 'Gagné', 'x'], mapping)).toEqual({
      last_name: 'Martin',
      email: ' JEANNE@EXAMPLE.FR ',
      marketing_consent: true,
      lead_score: 40,
      tags: ['vip', ' salon'],
      type: 'particulier',
      lead_status: 'won',
    });
  });

  it('passes what it cannot read to the schema, which gives the API reason', () => {
    const payload = rowToPayload(['Martin', '', '', 'peut-être', '', '', '', '', ''], mapping);
    expect(payload.marketing_consent).toBe('peut-être');
    expect(parseImportRow(payload)).toEqual({ reason: 'marketing_consent: must be a boolean' });
    expect(parseImportRow(rowToPayload(['Martin', '', '', '', '4,5', '', '', '', ''], mapping))).toEqual({ reason: 'lead_score: must be an integer' });
    expect(parseImportRow(rowToPayload(['Martin', '', '', '', '', '', 'client', '', ''], mapping))).toEqual({
      reason: 'type: must be particulier or professionnel',
    });
    expect(parseImportRow(rowToPayload(['', '', 'a@b.fr', '', '', '', '', '', ''], mapping))).toEqual({
      reason: 'company: no name nor company: give first_name or last_name, or company',
    });
  });

  it('gives a row the schema accepts, normalized like the API', () => {
    const parsed = parseImportRow(rowToPayload(['Martin', 'Dupré SARL', 'Jeanne@Example.fr', 'non', '', 'a,a, b', 'pro', 'nouveau', ''], mapping));
    expect(parsed).toMatchObject({
      payload: { last_name: 'Martin', company: 'Dupré SARL', email: 'jeanne@example.fr', marketing_consent: false, tags: ['a', 'b'], type: 'professionnel', lead_status: 'new' },
    });
  });

  it('tolerates short rows', () => {
    expect(rowToPayload(['Martin'], mapping)).toEqual({ last_name: 'Martin' });
  });
});

describe('decodeCsv and toRecords', () => {
  it('reads UTF-8 with a BOM, and Windows-1252 when the bytes are not UTF-8', () => {
    const utf8 = new TextEncoder().encode('\uFEFFPrénom;Nom\nÉlodie;Dupré\n');
    expect(decodeCsv(utf8)).toBe('Prénom;Nom\nÉlodie;Dupré\n');
    const cp1252 = Uint8Array.from([0x50, 0x72, 0xe9, 0x6e, 0x6f, 0x6d, 0x0a, 0xc9, 0x6c, 0x6f, 0x64, 0x69, 0x65]); // "Prénom\nÉlodie"
    expect(decodeCsv(cp1252)).toBe('Prénom\nÉlodie');
  });

  it('numbers rows like a spreadsheet, skipping blank rows but counting them', () => {
    const { table, error } = parseCsv('Nom;E-mail\nMartin;a@b.fr\n;\n"Dupré\nfils";c@d.fr\n\n');
    expect(error).toBeUndefined();
    expect(toRecords(table)).toEqual({
      headers: ['Nom', 'E-mail'],
      rows: [
        { line: 2, cells: ['Martin', 'a@b.fr'] },
        { line: 4, cells: ['Dupré\nfils', 'c@d.fr'] },
      ],
    });
    expect(toRecords(parseCsv('Nom,Société\n"Martin, Jeanne",ACME\n').table).rows).toEqual([{ line: 2, cells: ['Martin, Jeanne', 'ACME'] }]);
    expect(toRecords([[''], ['Nom'], ['Martin']])).toEqual({ headers: ['Nom'], rows: [{ line: 3, cells: ['Martin'] }] });
    expect(parseCsv('Nom\nMartin\n').error).toBeUndefined();
    expect(parseCsv('Nom;Email\n"Martin;a@b.fr\n').error).toMatch(/^ligne 2 : /);
  });

  it('an empty file has no header', () => {
    expect(toRecords([['']])).toEqual({ headers: [], rows: [] });
  });
});

describe('chunkRows', () => {
  it('cuts at maxRows', () => {
    const rows = Array.from({ length: 2500 }, (_, i) => ({ i }));
    expect(chunkRows(rows, 1000, 10_000_000).map((c) => c.length)).toEqual([1000, 1000, 500]);
  });

  it('cuts before maxBytes of JSON, counting UTF-8 bytes, but never leaves a row alone out', () => {
    const rows = [{ n: 'é'.repeat(40) }, { n: 'é'.repeat(40) }, { n: 'x'.repeat(500) }, { n: 'y' }];
    expect(chunkRows(rows, 1000, 150).map((c) => c.length)).toEqual([1, 1, 1, 1]);
    expect(chunkRows(rows, 1000, 200).map((c) => c.length)).toEqual([2, 1, 1]);
    expect(chunkRows([], 1000, 100)).toEqual([]);
  });
});
