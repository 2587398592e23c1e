import { describe, expect, it } from 'vitest';
import { CHOOSABLE_FIELDS, CONTACT_FIELDS, parseImportRow } from './payload';

// The browser runs this module (the import preview): it must give the reasons the import service gives.
describe('parseImportRow', () => {
  it('answers the normalized payload of a valid row', () => {
    expect(parseImportRow({ company: ' Dupré ', email: ' A@B.FR ', tags: ['x', ' x '] })).toEqual({
      payload: { company: 'Dupré', email: 'a@b.fr', tags: ['x'] },
    });
  });

  it('answers the first problem as "<field>: <message>"', () => {
    expect(parseImportRow({ company: 'A', siret: '123' })).toEqual({ reason: 'siret: SIRET must be 14 digits' });
    expect(parseImportRow({ company: 'A', tags: ['ok', 1] })).toEqual({ reason: 'tags.1: must be a string' });
    expect(parseImportRow({ compagny: 'A' })).toEqual({ reason: 'compagny: unknown field' });
    expect(parseImportRow({ type: 'particulier' })).toEqual({ reason: 'last_name: no name nor company: give first_name or last_name, or company' });
  });

  it('reads a blank type or lead status as none, like a blank text field', () => {
    expect(parseImportRow({ company: 'A', type: '', lead_status: '' })).toEqual({ payload: { company: 'A', type: null, lead_status: null } });
    expect(parseImportRow({ company: 'A', lead_status: 'maybe' })).toEqual({ reason: 'lead_status: must be one of new, qualified, contacted, won, lost' });
  });

  it('refuses what is not an object', () => {
    for (const row of [null, 'Martin', ['Martin'], 3]) expect(parseImportRow(row)).toEqual({ reason: 'row is not an object' });
  });
});

it('a merge chooses every field but tags and the consent proof', () => {
  expect(CONTACT_FIELDS.filter((f) => !(CHOOSABLE_FIELDS as string[]).includes(f))).toEqual(['consent_source', 'legal_basis', 'tags']);
});
