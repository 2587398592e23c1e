import type { RenderModel } from './model';

/**
 * A guess, from the model alone, of whether the template's content fits on one A4 page, so that renderDocument lays
 * out a longer document once, with its page numbers, instead of a throw-away one-page attempt first. A wrong guess
 * costs time only (the file is the same either way): guessing "one page" for a longer document costs a whole extra
 * layout, guessing "more" for a one-page document costs the page-number relayouts (about a fifth of a render), so
 * the guess says "more" from a little under the page on (MARGIN, about the calibration's uncertainty).
 *
 * Heights in points, from template.tsx's styles; calibrated on 2 Dec 2026 by rendering of a business invoice with three
 * VAT rates and bank details: 11 one-line rows fit on its page and 12 do not, 7 rows with a one-line detail fit and 8
 * do not.
 */
const PAGE_BODY = 842 - 36 - 78; // A4 less the page's top and bottom padding
/** Everything but the lines of such an invoice: header, boxes, VAT table, totals, payment and legal mentions. */
const FIXED = 511;
const ROW = 18.65; // paddingVertical 3 + 9 pt × 1.35 + the rule
const ROW_LINE = 9 * 1.35;
const DETAILS_LINE = 8 * 1.3;
const BODY_LINE = 9 * 1.35;
/** Characters per line, Liberation Sans at its mean width for French text: the description column, the full width. */
const COLUMN_CHARS = 50;
const DETAILS_CHARS = 56;
const WIDTH_CHARS = 110;
/** "More than one page" from this far under the page's height on: FIXED is known to ±7 pt. */
const MARGIN = 10;

const linesOf = (text: string | null | undefined, perLine: number) =>
  text ? text.split('\n').reduce((n, part) => n + Math.max(1, Math.ceil(part.length / perLine)), 0) : 0;

export function estimatedHeight(m: RenderModel): number {
  let height = FIXED;
  for (const item of m.items) {
    height += ROW + (linesOf(item.description, COLUMN_CHARS) - 1) * ROW_LINE;
    if (item.details) height += 1 + linesOf(item.details, DETAILS_CHARS) * DETAILS_LINE;
  }
  height += (linesOf(m.title, WIDTH_CHARS) + linesOf(m.description, WIDTH_CHARS) + linesOf(m.notes, WIDTH_CHARS)) * BODY_LINE;
  if (m.notes) height += 14 + 12; // the section's margin and title
  if (m.deposits.length > 0) height += 14 + 12 + m.deposits.length * BODY_LINE;
  return height;
}

export function likelyOnOnePage(m: RenderModel): boolean {
  return estimatedHeight(m) <= PAGE_BODY - MARGIN;
}
