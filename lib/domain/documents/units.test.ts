import { describe, expect, it } from 'vitest';
import { COMMON_UNITS, unitCodeOf, unitLabel } from './units';

describe('unit codes', () => {
  it('maps common catalogue labels to UN/ECE Rec 20 codes, case and spaces aside', () => {
    expect(unitCodeOf('heure')).toBe('HUR');
    expect(unitCodeOf(' Jour ')).toBe('DAY');
    expect(unitCodeOf('pièce')).toBe('H87');
    expect(unitCodeOf('m²')).toBe('MTK');
    expect(unitCodeOf('forfait')).toBe('C62');
  });

  it('keeps a label that already is a code, and gives null for anything else', () => {
    expect(unitCodeOf('KGM')).toBe('KGM');
    expect(unitCodeOf('kgm')).toBeNull();
    expect(unitCodeOf('boîte de 12')).toBeNull();
    expect(unitCodeOf(null)).toBeNull();
    expect(unitCodeOf('')).toBeNull();
  });

  it('prints the French word of a common code and any other code as is', () => {
    expect(unitLabel('HUR')).toBe('heure');
    expect(unitLabel('XPP')).toBe('XPP');
    expect(unitLabel(null)).toBe('');
    expect(unitLabel('DAY', '2')).toBe('jours');
    expect(unitLabel('HUR', '1.5')).toBe('heure');
    expect(unitLabel('MON', '3')).toBe('mois');
    expect(unitLabel('MTK', '20')).toBe('m²');
    // Every common code is what unitCodeOf gives for its own label.
    for (const u of COMMON_UNITS) expect(unitCodeOf(u.label)).toBe(u.code);
  });
});
