/**
 * fontkit shapes every run of text again on every layout (react-pdf's textkit calls `font.layout` once per run, and
 * a 2-page document is laid out several times), with no cache of its own: about a tenth of a render's CPU went to it
 * (docs/facturx.md, "Render memory and CPU"). Most runs repeat from one document to the next — the labels, the legal
 * mentions, the seller's identity, rates and units — so each face keeps its last runs, by text and options.
 *
 * Safe to share: textkit copies the positions it scales and slices the glyph arrays it keeps, and react-pdf's render
 * copies the glyphs before it changes any; the glyph objects themselves were already one per glyph and font.
 */
const MAX_RUNS = 2000;

interface Shaper {
  layout(text: string, features?: unknown, script?: string, language?: string, direction?: string): unknown;
}

const cached = new WeakSet<object>();

/** Wraps a fontkit font's `layout` with a bounded cache (least recently used out), once per font object. */
export function cacheShaping(font: Shaper): void {
  if (cached.has(font)) return;
  cached.add(font);
  const shape = font.layout.bind(font);
  const runs = new Map<string, unknown>();
  font.layout = (text, features, script, language, direction) => {
    const key = `${text}\u0000${features === undefined ? '' : JSON.stringify(features)}\u0000${script ?? ''}\u0000${language ?? ''}\u0000${direction ?? ''}`;
    const hit = runs.get(key);
    if (hit !== undefined) {
      runs.delete(key);
      runs.set(key, hit);
      return hit;
    }
    const run = shape(text, features, script, language, direction);
    runs.set(key, run);
    if (runs.size > MAX_RUNS) runs.delete(runs.keys().next().value!);
    return run;
  };
}
