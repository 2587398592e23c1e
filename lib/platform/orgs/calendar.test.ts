import { describe, expect, it } from 'vitest';
import { suggestsAlsaceMoselle } from './calendar';

describe('suggestsAlsaceMoselle', () => {
  it('suggests the Alsace-Moselle calendar for a postal code of Moselle, Bas-Rhin or Haut-Rhin only', () => {
    expect(['57000', '67000', '68100', ' 67200 '].map(suggestsAlsaceMoselle)).toEqual([true, true, true, true]);
    expect(['75011', '54000', '5700', '570000', '', null, undefined].map(suggestsAlsaceMoselle)).toEqual([false, false, false, false, false, false, false]);
  });
});
