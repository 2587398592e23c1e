import path from 'node:path';
import { Font } from '@react-pdf/renderer';

/**
 * Liberation Sans 2.1.5 (SIL OFL 1.1, lib/pdf/fonts/LICENSE.txt), metric-compatible with Helvetica/Arial.
 * react-pdf's built-in Helvetica is a standard font that is not embedded, which PDF/A forbids: every text
 * uses this family, embedded and subset.
 */
export const FONT_FAMILY = 'Liberation Sans';

export const FONTS_DIR = path.join(process.cwd(), 'lib/pdf/fonts');

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
  // Words are never hyphenated: a number or an IBAN cut in two is misread.
  Font.registerHyphenationCallback((word) => [word]);
  registered = true;
}
