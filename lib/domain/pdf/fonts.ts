import path from 'node:path';
import { Font } from '@react-pdf/renderer';
import { cacheShaping } from './shaping-cache';

/**
 * Liberation Sans 2.1.5 (SIL OFL 1.1, lib/domain/pdf/fonts/LICENSE.txt), metric-compatible with Helvetica/Arial.
 * react-pdf's built-in Helvetica is a standard font that is not embedded, which PDF/A forbids: every text
 * uses this family, embedded and subset.
 */
export const FONT_FAMILY = 'Liberation Sans';
/** Noto Emoji 400/700 (SIL OFL 1.1), the monochrome outline emoji font: 💡, 👍, ✔, ⚠… */
export const EMOJI_FAMILY = 'Noto Emoji';
/** Noto Sans SC 400/700 (SIL OFL 1.1): Chinese, Japanese kana and kanji, and symbols such as ✓ ★ ☎ → ①. */
export const CJK_FAMILY = 'Noto Sans SC';

/**
 * The font stack of every text: react-pdf sets each character in the first family that has a glyph for it, then —
 * when none has — in the family it appends to every stack, "Helvetica", which is also the family of a text that sets
 * none. Its built-in Helvetica is not embedded: registerFonts makes "Helvetica" name Liberation Sans, so that every
 * style resolves to an embedded face whatever a template forgets. And the text is made printable first (printable):
 * what no family of the stack covers is replaced, since the last resort would draw a .notdef glyph, which PDF/A
 * forbids. Liberation Sans covers Latin, Greek, Cyrillic and Hebrew; the Noto fallbacks are loaded once per process and,
 * like Liberation, embedded as subsets of the glyphs a document uses (a document without emoji or CJK embeds neither).
 */
export const FONT_STACK = [FONT_FAMILY, EMOJI_FAMILY, CJK_FAMILY];

export const FONTS_DIR = path.join(process.cwd(), 'lib/domain/pdf/fonts');
const NODE_MODULES = path.join(process.cwd(), 'node_modules');

/** The family react-pdf appends to every font stack and gives a text that names none (@react-pdf/layout). */
const REACT_PDF_FALLBACK = 'Helvetica';

/** Words are never hyphenated: a number or an IBAN cut in two is misread. */
const noHyphenation = (word: string) => [word];

/**
 * Registers the stack in react-pdf's font store, idempotently against the store itself (not a flag of this module:
 * a test worker that resets its modules may evaluate this file again while @react-pdf/renderer, and so its store,
 * stays the same; a family registered twice would hold every face twice). Called before every render.
 */
export function registerFonts() {
  const families = Font.getRegisteredFonts();
  if (!families[FONT_FAMILY]) {
    Font.register({
      family: FONT_FAMILY,
      fonts: [
        { src: path.join(FONTS_DIR, 'LiberationSans-Regular.ttf') },
        { src: path.join(FONTS_DIR, 'LiberationSans-Bold.ttf'), fontWeight: 'bold' },
        { src: path.join(FONTS_DIR, 'LiberationSans-Italic.ttf'), fontStyle: 'italic' },
      ],
    });
  }
  // The fallbacks have no italic: their upright faces stand in (react-pdf refuses a style a family lacks).
  const fallback = (family: string, regular: string, bold: string) => {
    if (families[family]) return;
    Font.register({
      family,
      fonts: [
        { src: regular },
        { src: bold, fontWeight: 'bold' },
        { src: regular, fontStyle: 'italic' },
      ],
    });
  };
  const emoji = path.join(NODE_MODULES, '@expo-google-fonts/noto-emoji');
  fallback(EMOJI_FAMILY, path.join(emoji, '400Regular/NotoEmoji_400Regular.ttf'), path.join(emoji, '700Bold/NotoEmoji_700Bold.ttf'));
  const cjk = path.join(NODE_MODULES, '@expo-google-fonts/noto-sans-sc');
  fallback(CJK_FAMILY, path.join(cjk, '400Regular/NotoSansSC_400Regular.ttf'), path.join(cjk, '700Bold/NotoSansSC_700Bold.ttf'));
  if (Font.getHyphenationCallback() !== noHyphenation) Font.registerHyphenationCallback(noHyphenation);
  // react-pdf's fallback and default family, "Helvetica", is its standard font, never embedded: it got every character
  // no family has — a line feed, a tab (issue 34) — and every text without a family. It names Liberation Sans here
  // (the same faces, so nothing more is embedded; Liberation is metric-compatible with Helvetica).
  const registered = Font.getRegisteredFonts();
  if (registered[REACT_PDF_FALLBACK] !== registered[FONT_FAMILY]) registered[REACT_PDF_FALLBACK] = registered[FONT_FAMILY]!;
}

interface GlyphLookup {
  hasGlyphForCodePoint(codePoint: number): boolean;
}

/** The part of a fontkit font (react-pdf's FontSource.data) the line feeds need. */
interface Face extends GlyphLookup {
  getGlyph(id: number): { codePoints: number[] };
}

const LINE_FEED = 0x0a;

/**
 * A line feed reaches the layout (react-pdf breaks the line on it, then drops it from the line's end) and, since no
 * family has a glyph for it, is set in the fallback — Liberation Sans — as glyph 0, .notdef. fontkit keeps one Glyph
 * object per glyph id and font, with the code points of whoever asked first: the line feed's own lookup gives it
 * [LF], but pdfkit, when a document first writes with the font, asks for glyph 0's width with none. react-pdf maps
 * glyphs back to characters by those code points: it then dropped the line's last character but kept the glyph, and
 * every line feed of every later document of the process was drawn as a missing-glyph box (the order of the test
 * files decided it). printable keeps every other character off glyph 0, so its code points are set to [LF] before
 * each layout, whatever was rendered before.
 */
function keepLineFeedsDroppable(face: Face) {
  const notdef = face.getGlyph(0);
  if (notdef.codePoints.length !== 1 || notdef.codePoints[0] !== LINE_FEED) notdef.codePoints = [LINE_FEED];
}

/**
 * The regular faces of the stack, loaded through react-pdf's font store (the same fonts it then lays out with), and
 * every face of Liberation Sans: react-pdf loads only the faces a style names, and the fallback "Helvetica" it
 * appends — Liberation Sans here — must be ready for a style that names none. Read from the store on every call (a
 * FontSource loads its file once): nothing of this module's own outlives a reset of the store or of the modules.
 * Without `fallbacks`, only Liberation Sans: a process that prints Latin text only never reads the Noto files (11–21 MB
 * each, parsed by fontkit), see docs/facturx.md "Render memory and CPU".
 */
async function loadStack(fallbacks = true): Promise<GlyphLookup[]> {
  registerFonts();
  const stack = await Promise.all(
    (fallbacks ? FONT_STACK : [FONT_FAMILY]).map(async (fontFamily) => {
      const source = Font.getFont({ fontFamily, fontWeight: 400, fontStyle: 'normal' });
      await source.load();
      return source.data as unknown as GlyphLookup;
    }),
  );
  const liberation = Font.getRegisteredFonts()[FONT_FAMILY]!.sources;
  await Promise.all(liberation.map((source) => source.load()));
  for (const source of liberation) {
    keepLineFeedsDroppable(source.data as unknown as Face);
    // Liberation Sans sets nearly every run: its shaping is cached (shaping-cache.ts).
    cacheShaping(source.data as unknown as Parameters<typeof cacheShaping>[0]);
  }
  return stack;
}

/** What stands for a character no font of the stack has (none has U+FFFD). */
export const UNPRINTABLE = '?';

/** Characters Liberation Sans has, and the line feed (which printable keeps): such a text needs no other font. */
const LIBERATION_ONLY = /^[\n\x20-\x7e\u00a0-\u00ac\u00ae-\u017f]*$/;

/** Line breaks of every kind: CR LF, CR, vertical tab, form feed, NEL, the line and paragraph separators. */
const LINE_BREAK = /\r\n?|[\v\f\u0085\u2028\u2029]/g;

/**
 * The text as the PDF can print it with embedded fonts only: composed (NFC, so "e" + U+0301 is the "é" every font
 * has); every line break a line feed (react-pdf breaks the line there and draws no glyph for it); a tab a space (a
 * font draws a tab as a missing glyph); invisible format characters no font draws (zero-width joiner, variation
 * selectors of emoji sequences, skin-tone modifiers, the soft hyphen, which react-pdf would lay out with no font at
 * the start of a text) dropped; any other character that no font of the stack has — Hangul, Arabic, Devanagari,
 * private use, U+FFFD, a lone surrogate, a control character — replaced by "?". The bold and italic faces have the
 * same characters as the regular ones. The XML keeps the text as typed.
 */
export function printableWith(fonts: readonly GlyphLookup[], text: string): string {
  if (LIBERATION_ONLY.test(text)) return text;
  const covered = (cp: number) => fonts.some((f) => f.hasGlyphForCodePoint(cp));
  let out = '';
  for (const ch of text.normalize('NFC').replace(LINE_BREAK, '\n')) {
    const cp = ch.codePointAt(0)!;
    if (ch === '\n') out += ch;
    else if (ch === '\t') out += ' ';
    else if (ch === '\u00ad') continue;
    else if (cp >= 0x20 && covered(cp)) out += ch;
    else if (/[\p{Cf}\p{Variation_Selector}\p{Emoji_Modifier}]/u.test(ch)) continue;
    else out += UNPRINTABLE;
  }
  return out;
}

export async function printableText(text: string): Promise<string> {
  return (await printableModel(text)).value;
}

/** The strings of a value (a render model): its own, its arrays' and its plain objects'. */
function someString(v: unknown, test: (s: string) => boolean): boolean {
  if (typeof v === 'string') return test(v);
  if (Array.isArray(v)) return v.some((x) => someString(x, test));
  if (v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) return Object.values(v).some((x) => someString(x, test));
  return false;
}

/**
 * Whether a text has a character Liberation Sans lacks, other than those printableWith turns into a space, drops or
 * keeps without a font (tab, soft hyphen, line breaks, controls): then, and only then, the Noto faces can matter.
 */
function beyondLiberation(liberation: GlyphLookup, text: string): boolean {
  if (LIBERATION_ONLY.test(text)) return false;
  for (const ch of text.normalize('NFC').replace(LINE_BREAK, '\n')) {
    const cp = ch.codePointAt(0)!;
    if (cp >= 0x20 && cp !== 0xad && !liberation.hasGlyphForCodePoint(cp)) return true;
  }
  return false;
}

/**
 * A deep copy of a value (a render model) with every string made printable, and whether a text needs a fallback
 * font: when none does, every character is kept or replaced as with the whole stack, and the template sets the text
 * in Liberation Sans alone (react-pdf loads every family a style names): the same file, no Noto font read.
 */
export async function printableModel<T>(value: T): Promise<{ value: T; fallbacks: boolean }> {
  const liberation = await loadStack(false);
  const fallbacks = someString(value, (text) => beyondLiberation(liberation[0]!, text));
  const fonts = fallbacks ? await loadStack() : liberation;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return printableWith(fonts, v);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    }
    return v;
  };
  return { value: walk(value) as T, fallbacks };
}

/** A deep copy of a value (a render model) with every string made printable. */
export async function printable<T>(value: T): Promise<T> {
  return (await printableModel(value)).value;
}
