import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Tx } from '@/db/client';
import { FIELD_TYPES, signatureDocuments, signatureFields } from '@/db/schema';
import { ApiError, validationError } from '@/lib/platform/errors';

/*
 * Text tags (issue 19 item 4, docs/signature.md « Text tags »): `{{type:signer[:label][:required|optional]}}` written
 * in the PDF places a field for the signer-th signer (1-based, request order) over the tag. Read with pdf.js's text
 * positions at upload; the signed output paints the field's box white first, hiding the tag.
 */

export type FieldType = (typeof FIELD_TYPES)[number];

export const TextTag = z.object({
  tag: z.string(),
  type: z.enum(FIELD_TYPES),
  signer: z.number().int().min(1),
  label: z.string().nullable(),
  required: z.boolean(),
  page: z.number().int().min(1),
  x: z.number(),
  y: z.number(),
  width: z.number(),
  height: z.number(),
});
export type TextTag = z.infer<typeof TextTag>;
type ParsedTag = Pick<TextTag, 'type' | 'signer' | 'label' | 'required'>;

/** The highest signer a tag may name (an envelope holds far fewer signers than this). */
export const MAX_TAG_SIGNER = 50;
const MAX_LABEL = 100;
/** Fields a signer must fill unless the tag says `optional`; text and checkbox only when it says `required`. */
const REQUIRED_BY_DEFAULT: ReadonlySet<FieldType> = new Set(['signature', 'initials', 'date', 'name', 'email']);
/** Below the baseline, for descenders and the braces: the box spans from there to one font size above the baseline. */
const DESCENT = 0.25;

/** The tag's meaning, or why it is malformed (in English, for the 422's message). */
export function parseTag(inner: string): ParsedTag | string {
  const parts = inner.split(':').map((p) => p.trim());
  const [type, signer, ...rest] = parts;
  if (!type || !(FIELD_TYPES as readonly string[]).includes(type)) return `unknown type "${type ?? ''}" (one of ${FIELD_TYPES.join(', ')})`;
  if (!signer || !/^[0-9]+$/.test(signer)) return 'the signer must be a number from 1 (the first signer)';
  const index = Number(signer);
  if (index < 1 || index > MAX_TAG_SIGNER) return `the signer must be from 1 to ${MAX_TAG_SIGNER}`;
  let required = REQUIRED_BY_DEFAULT.has(type as FieldType);
  const flag = rest.at(-1);
  if (flag === 'required' || flag === 'optional') {
    required = flag === 'required';
    rest.pop();
  }
  if (rest.length > 1) return 'too many parts (type:signer[:label][:required|optional])';
  const label = rest[0] ?? null;
  if (label !== null && (label === '' || label.length > MAX_LABEL)) return `the label must be 1 to ${MAX_LABEL} characters`;
  return { type: type as FieldType, signer: index, label, required };
}

const malformed = (tag: string, page: number, why: string) =>
  new ApiError(422, 'invalid_text_tag', `file: the text tag ${tag} on page ${page} is malformed: ${why}.`, 'file');

interface TextItem {
  str: string;
  transform: number[];
  width: number;
  height: number;
}

const clamp01 = (v: number) => Math.min(1, Math.max(0, v));

/**
 * Every tag of the PDF, in page order, with its box in fractions of the page (origin top-left, as fields are). A tag
 * is read within one text run: its horizontal place inside a longer run is proportional to its characters (exact when
 * the tag is a run of its own). Any `{{…}}` that does not parse is a 422 `invalid_text_tag` naming it and its page.
 */
export async function findTextTags(bytes: Uint8Array): Promise<TextTag[]> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  // pdf.js may detach the buffer it is given: it reads a copy.
  const pdf = await pdfjs.getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: 0 })
    .promise;
  const tags: TextTag[] = [];
  try {
    for (let pageNumber = 1; pageNumber <= pdf.numPages; pageNumber += 1) {
      const page = await pdf.getPage(pageNumber);
      const [x0, y0, x1, y1] = page.view as [number, number, number, number];
      const pageWidth = x1 - x0;
      const pageHeight = y1 - y0;
      const content = await page.getTextContent();
      for (const item of content.items as TextItem[]) {
        if (typeof item.str !== 'string' || !item.str.includes('{{')) continue;
        const [, , c = 0, d = 0, e = 0, f = 0] = item.transform;
        const size = item.height || Math.hypot(c, d);
        const perChar = item.str.length ? item.width / item.str.length : 0;
        for (const match of item.str.matchAll(/\{\{([^{}]*)\}\}|\{\{/g)) {
          const tag = match[0];
          if (match[1] === undefined) throw malformed(item.str.slice(match.index, match.index + 40), pageNumber, 'no closing }} on the same line');
          const parsed = parseTag(match[1]);
          if (typeof parsed === 'string') throw malformed(tag, pageNumber, parsed);
          const x = clamp01((e + perChar * match.index - x0) / pageWidth);
          const y = clamp01((y1 - (f + size)) / pageHeight);
          // Kept inside the page, as the fields' CHECK wants.
          const width = Math.min((perChar * tag.length) / pageWidth, 1 - x);
          const height = Math.min((size * (1 + DESCENT)) / pageHeight, 1 - y);
          if (!(width > 0 && height > 0)) throw malformed(tag, pageNumber, 'it lies outside the page');
          tags.push({ tag, ...parsed, page: pageNumber, x, y, width, height });
        }
      }
      page.cleanup();
    }
  } finally {
    await pdf.destroy();
  }
  return tags;
}

/** The text tags found in an uploaded document when it was stored (none for another org's or an unknown id). */
export async function documentTextTags(tx: Tx, orgId: string, documentId: string): Promise<TextTag[]> {
  const [doc] = await tx
    .select({ text_tags: signatureDocuments.text_tags })
    .from(signatureDocuments)
    .where(and(eq(signatureDocuments.org_id, orgId), eq(signatureDocuments.id, documentId)));
  return z.array(TextTag).parse(doc?.text_tags ?? []);
}

/** The highest signer number the tags name (0 without tags): an envelope needs at least that many signers. */
export const signersNeeded = (tags: readonly TextTag[]) => Math.max(0, ...tags.map((t) => t.signer));

/** The field rows (origin `tag`) of one envelope: a tag for signer N goes to the Nth signer in request order. */
export function tagFieldRows(tags: readonly TextTag[], orgId: string, envelopeId: string, signers: readonly { id: string; position: number }[]) {
  const byPosition = [...signers].sort((a, b) => a.position - b.position);
  return tags.map((t, position) => ({
    org_id: orgId,
    envelope_id: envelopeId,
    signer_id: byPosition[t.signer - 1]!.id,
    position,
    type: t.type,
    page: t.page,
    x: t.x,
    y: t.y,
    width: t.width,
    height: t.height,
    required: t.required,
    label: t.label,
    origin: 'tag' as const,
  }));
}

/**
 * The fields of an envelope on an uploaded document that carries tags (origin `tag`), in the envelope's transaction:
 * a tag for signer N goes to the Nth signer of the request (`position` N − 1). A tag naming a signer the envelope does
 * not have is a 422 on `signers`. Called at creation, and again whenever the signer set is replaced.
 */
export async function placeTagFields(tx: Tx, orgId: string, envelopeId: string, documentId: string, signers: readonly { id: string; position: number }[]) {
  const tags = await documentTextTags(tx, orgId, documentId);
  if (tags.length === 0) return [];
  const needed = signersNeeded(tags);
  if (needed > signers.length) {
    throw validationError('signers', `signers: the document's text tags name signer ${needed}; give at least ${needed} signers`);
  }
  await tx.delete(signatureFields).where(and(eq(signatureFields.envelope_id, envelopeId), eq(signatureFields.origin, 'tag')));
  return tx.insert(signatureFields).values(tagFieldRows(tags, orgId, envelopeId, signers)).returning();
}
