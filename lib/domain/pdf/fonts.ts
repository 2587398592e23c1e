import path from 'node:path';
import { Font } from '@react-pdf/renderer';

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
 * The font stack of every text: react-pdf sets each character in the first family that has a glyph for it,
 * then — when none has — in Helvetica, which it appends to every stack and does not embed. So the text is made
 * printable first (printableText): what no family of the stack covers is replaced. Liberation Sans covers Latin,
 * Greek, Cyrillic and Hebrew; the Noto fallbacks are loaded once per process and, like Liberation, embedded as
 * subsets of the glyphs a document uses (a document without emoji or CJK embeds neither).
 */
export const FONT_STACK = [FONT_FAMILY, EMOJI_FAMILY, CJK_FAMILY];

export const FONTS_DIR = path.join(process.cwd(), 'lib/domain/pdf/fonts');
const NODE_MODULES = path.join(process.cwd(), 'node_modules');

let registered = false;

export function registerFonts() {
  if (registered) return;
  Font.register({
    family: FONT_FAMILY,
    fonts: [
      { src: path.join(FONTS_DIR, 'LiberationSans-Regular.ttf') },
      { src: path.join(FONTS_DIR, 'LiberationSans-Bold.ttf'), fontWeight: 'bold' },
      { src: path.join(FONTS_DIR, 'LiberationSans-Italic.ttf'), fontStyle: 'italic' },
    ],
  });
  // The fallbacks have no italic: their upright faces stand in (react-pdf refuses a style a family lacks).
  const fallback = (family: string, regular: string, bold: string) =>
    Font.register({
      family,
      fonts: [
        { src: regular },
        { src: bold, fontWeight: 'bold' },
        { src: regular, fontStyle: 'italic' },
      ],
    });
  const emoji = path.join(NODE_MODULES, '@expo-google-fonts/noto-emoji');
  fallback(EMOJI_FAMILY, path.join(emoji, '400Regular/NotoEmoji_400Regular.ttf'), path.join(emoji, '700Bold/NotoEmoji_700Bold.ttf'));
  const cjk = path.join(NODE_MODULES, '@expo-google-fonts/noto-sans-sc');
  fallback(CJK_FAMILY, path.join(cjk, '400Regular/NotoSansSC_400Regular.ttf'), path.join(cjk, '700Bold/NotoSansSC_700Bold.ttf'));
  // Words are never hyphenated: a number or an IBAN cut in two is misread.
  Font.registerHyphenationCallback((word) => [word]);
  registered = true;
}

interface GlyphLookup {
  hasGlyphForCodePoint(codePoint: number): boolean;
}

let stack: Promise<GlyphLookup[]> | null = null;

/** The regular faces of the stack, loaded through react-pdf's font store (the same fonts it then lays out with). */
function loadStack(): Promise<GlyphLookup[]> {
  registerFonts();
  stack ??= Promise.all(
    FONT_STACK.map(async (fontFamily) => {
      const source = Font.getFont({ fontFamily, fontWeight: 400, fontStyle: 'normal' }) as unknown as { load(): Promise<void>; data: GlyphLookup | null };
      await source.load();
      return source.data!;
    }),
  ).catch((err) => {
    stack = null;
    throw err;
  });
  return stack;
}

/** What stands for a character no font of the stack has (none has U+FFFD). */
export const UNPRINTABLE = '?';

/**
 * The text as the PDF can print it with embedded fonts only: composed (NFC, so "e" + U+0301 is the "é" every font
 * has); line breaks and tabs kept; invisible format characters no font draws (zero-width joiner, variation
 * selectors of emoji sequences, skin-tone modifiers) dropped; any other character that no font of the stack has
 * (Hangul, Arabic, Devanagari… today) replaced by "?". The XML keeps the text as typed.
 */
export function printableWith(fonts: readonly GlyphLookup[], text: string): string {
  if (/^[\t\n\r\x20-\x7e\u00a0-\u017f]*$/.test(text)) return text; // Liberation Sans has all of these
  const covered = (cp: number) => fonts.some((f) => f.hasGlyphForCodePoint(cp));
  let out = '';
  for (const ch of text.normalize('NFC')) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x20 || covered(cp)) out += ch;
    else if (/[\p{Cf}\p{Variation_Selector}\p{Emoji_Modifier}]/u.test(ch)) continue;
    else out += UNPRINTABLE;
  }
  return out;
}

export async function printableText(text: string): Promise<string> {
  return printableWith(await loadStack(), text);
}

/** A deep copy of a value (a render model) with every string made printable. */
export async function printable<T>(value: T): Promise<T> {
  const fonts = await loadStack();
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return printableWith(fonts, v);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    }
    return v;
  };
  return walk(value) as T;
}
