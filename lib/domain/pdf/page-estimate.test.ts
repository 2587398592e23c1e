import { describe, expect, it } from 'vitest';
import { printableModel } from './fonts';
import type { RenderModel } from './model';
import { estimatedHeight, likelyOnOnePage } from './page-estimate';
import { cacheShaping } from './shaping-cache';

/** The fields the estimate reads; the rest of a render model does not move it. */
const model = (lines: number, details: string | null = null, extra: Partial<RenderModel> = {}) =>
  ({
    items: Array.from({ length: lines }, (_, i) => ({ description: `Prestation ${i + 1} — intervention sur site`, details })),
    title: null,
    description: null,
    notes: null,
    deposits: [],
    ...extra,
  }) as unknown as RenderModel;

describe('likelyOnOnePage (the order of renderDocument’s layouts, never the file)', () => {
  it('agrees with the calibration renders: 11 one-line rows fit, 12 do not; 10 rows with 4 details do not', () => {
    expect(likelyOnOnePage(model(2))).toBe(true);
    expect(likelyOnOnePage(model(11))).toBe(true);
    expect(likelyOnOnePage(model(12))).toBe(false);
    const bench = model(10);
    for (const [i, item] of bench.items.entries()) item.details = i % 3 === 0 ? 'Déplacement et matériel compris.' : null;
    expect(likelyOnOnePage(bench)).toBe(false);
  });

  it('counts long descriptions, details and notes by their wrapped lines', () => {
    expect(estimatedHeight(model(2, 'x'.repeat(560)))).toBeGreaterThan(estimatedHeight(model(2, 'x')));
    expect(estimatedHeight(model(2, null, { notes: 'Une ligne.\n'.repeat(30) }))).toBeGreaterThan(estimatedHeight(model(2)) + 300);
    expect(likelyOnOnePage(model(2, null, { notes: 'Une ligne.\n'.repeat(30) }))).toBe(false);
  });
});

describe('printableModel', () => {
  it('needs no fallback font for text Liberation Sans has (accents, dashes, €, quotes, tabs, line breaks)', async () => {
    const fallbacks = async (value: unknown) => (await printableModel(value)).fallbacks;
    expect(await fallbacks({ a: 'Déplacement — 12,00 € « l’atelier »', b: ['Ligne 1\r\nLigne\t2'], c: null, d: 3 })).toBe(false);
    expect(await fallbacks({ a: ['ok', { b: '💡' }] })).toBe(true);
    expect(await fallbacks('中文')).toBe(true);
    // Hangul: no font has it, printed "?" all the same.
    expect(await printableModel('한국어 ok')).toEqual({ value: '??? ok', fallbacks: true });
  });
});

describe('cacheShaping', () => {
  it('shapes a text once per options, keeps at most 2,000 runs, and wraps a font once', () => {
    const calls: string[] = [];
    const font = {
      layout: (text: string, features?: unknown) => {
        calls.push(`${text}|${JSON.stringify(features)}`);
        return { text };
      },
    };
    cacheShaping(font);
    cacheShaping(font);
    const first = font.layout('Total HT');
    expect(font.layout('Total HT')).toBe(first);
    font.layout('Total HT', ['liga']);
    expect(calls).toEqual(['Total HT|undefined', 'Total HT|["liga"]']);
    for (let i = 0; i < 2000; i++) font.layout(`run ${i}`);
    // 'Total HT' without features was the least recently used: shaped again.
    font.layout('Total HT');
    expect(calls.filter((c) => c === 'Total HT|undefined')).toHaveLength(2);
  });
});
