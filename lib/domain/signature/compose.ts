import { type PDFFont, PDFDocument, type PDFImage, type PDFPage, rgb, StandardFonts } from 'pdf-lib';
import type { signatureEnvelopes, signatureFields, signatureSigners } from '@/db/schema';
import { formatDay, formatInstant } from '@/lib/platform/format';
import { SealFailure } from './evidence-state';
import { SIGNATURE_KIND_LABELS } from './labels';

type EnvelopeRow = typeof signatureEnvelopes.$inferSelect;
type SignerRow = typeof signatureSigners.$inferSelect;
type FieldRow = typeof signatureFields.$inferSelect;

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 50;
const INK = rgb(0.1, 0.12, 0.2);
const GREY = rgb(0.4, 0.42, 0.48);

/** Signs WinAnsi lacks but that have a plain spelling: written so rather than as "?" (a name, a text field, a label). */
const SPELLED: Record<string, string> = { '←': '<-', '→': '->', '↔': '<->', '⇒': '=>', '≤': '<=', '≥': '>=', '≠': '!=', '−': '-' };

/**
 * The standard fonts encode WinAnsi only (French is covered): anything else would make pdf-lib throw, so it is
 * spelled in plain characters when it can be (SPELLED), else shown as "?" (the evidence JSON and the chain keep the
 * exact text).
 */
export function printableText(font: PDFFont, text: string): string {
  const charset = new Set(font.getCharacterSet());
  return [...text.normalize('NFC').replace(/[\r\n\t]+/g, ' ')].map((c) => (charset.has(c.codePointAt(0)!) ? c : (SPELLED[c] ?? '?'))).join('');
}

/** A date field's value as printed: the stored calendar day (YYYY-MM-DD) as 01/12/2026; anything else as it is. */
export const printedDay = (value: string) => (/^\d{4}-\d{2}-\d{2}$/.test(value) ? formatDay(value, 'fr') : value);

/** Date and time in Europe/Paris, as the signature page and the proof show them. */
export const parisTime = (d: Date | null) => (d ? `${formatInstant(d, { time: 'medium' })} (Europe/Paris) — ${d.toISOString()}` : '—');
const parisDay = (d: Date) => formatInstant(d, { time: null });

/** Writes flowing text page after page (A4), for the signature page and the proof. */
export class TextPages {
  private page!: PDFPage;
  private y = 0;
  constructor(
    private readonly doc: PDFDocument,
    private readonly regular: PDFFont,
    private readonly bold: PDFFont,
  ) {
    this.newPage();
  }

  static async create(doc: PDFDocument) {
    return new TextPages(doc, await doc.embedFont(StandardFonts.Helvetica), await doc.embedFont(StandardFonts.HelveticaBold));
  }

  private newPage() {
    this.page = this.doc.addPage(A4);
    this.y = A4[1] - MARGIN;
  }

  /** Wrapped lines of `text` at `size` within the page width (long words are cut). */
  private wrap(text: string, font: PDFFont, size: number, width: number): string[] {
    const lines: string[] = [];
    let line = '';
    for (const word of printableText(font, text).split(' ')) {
      let w = word;
      while (font.widthOfTextAtSize(w, size) > width) {
        let cut = w.length - 1;
        while (cut > 1 && font.widthOfTextAtSize(w.slice(0, cut), size) > width) cut -= 1;
        if (line) lines.push(line);
        lines.push(w.slice(0, cut));
        line = '';
        w = w.slice(cut);
      }
      const candidate = line ? `${line} ${w}` : w;
      if (font.widthOfTextAtSize(candidate, size) <= width) line = candidate;
      else {
        lines.push(line);
        line = w;
      }
    }
    if (line || lines.length === 0) lines.push(line);
    return lines;
  }

  text(text: string, options: { size?: number; bold?: boolean; grey?: boolean; indent?: number; gap?: number } = {}) {
    const size = options.size ?? 9;
    const font = options.bold ? this.bold : this.regular;
    const indent = options.indent ?? 0;
    for (const line of this.wrap(text, font, size, A4[0] - 2 * MARGIN - indent)) {
      if (this.y - size < MARGIN) this.newPage();
      this.y -= size * 1.35;
      this.page.drawText(line, { x: MARGIN + indent, y: this.y, size, font, color: options.grey ? GREY : INK });
    }
    this.y -= options.gap ?? 0;
  }

  space(points = 8) {
    this.y -= points;
  }
}

/** A signature's kind, French then English: « dessinée / drawn ». */
export const kindLabel = (kind: string | null) => (kind === 'drawn' || kind === 'typed' ? `${SIGNATURE_KIND_LABELS[kind]} / ${kind}` : '—');

/** What a signer's line on the signature page says about them. */
export const methodLabel = (s: SignerRow) =>
  ({ email_otp: 'code à usage unique par e-mail / one-time code by e-mail', sms_otp: 'code à usage unique par SMS / one-time code by SMS', none: 'lien personnel / personal link' })[
    s.verification_method
  ];

/** A field's box in PDF points (origin bottom-left), from fractions of the page's crop box (origin top-left). */
function boxOf(page: PDFPage, f: FieldRow) {
  const crop = page.getCropBox();
  return { x: crop.x + f.x * crop.width, y: crop.y + (1 - f.y - f.height) * crop.height, width: f.width * crop.width, height: f.height * crop.height };
}

function fitText(page: PDFPage, font: PDFFont, raw: string, box: ReturnType<typeof boxOf>) {
  const text = printableText(font, raw);
  if (!text) return;
  let size = Math.min(box.height * 0.7, 14);
  const width = font.widthOfTextAtSize(text, size);
  if (width > box.width * 0.95) size = (size * box.width * 0.95) / width;
  page.drawText(text, { x: box.x + 2, y: box.y + (box.height - size) / 2 + size * 0.2, size: Math.max(size, 3), font, color: INK });
}

async function drawSignature(doc: PDFDocument, page: PDFPage, signer: SignerRow, box: ReturnType<typeof boxOf>, script: PDFFont) {
  if (signer.signature_kind === 'drawn' && signer.signature_value) {
    const match = /^data:image\/(png|jpeg);base64,(.+)$/.exec(signer.signature_value);
    if (match) {
      const bytes = Buffer.from(match[2]!, 'base64');
      let image: PDFImage;
      try {
        image = match[1] === 'png' ? await doc.embedPng(bytes) : await doc.embedJpg(bytes);
      } catch (err) {
        // Named, so that the envelope says which cause to fix before the seal is retried (docs/signature.md).
        throw new SealFailure('signature_image_invalid', `the drawn signature of signer ${signer.id} cannot be decoded (${err instanceof Error ? `${err.name}: ${err.message}` : String(err)})`);
      }
      const scale = Math.min(box.width / image.width, box.height / image.height);
      const w = image.width * scale;
      const h = image.height * scale;
      page.drawImage(image, { x: box.x + (box.width - w) / 2, y: box.y + (box.height - h) / 2, width: w, height: h });
      return;
    }
  }
  fitText(page, script, signer.signature_value ?? signer.full_name ?? signer.email, box);
}

export interface ComposeInput {
  original: Uint8Array;
  envelope: EnvelopeRow;
  signers: SignerRow[];
  fields: FieldRow[];
  /** The name of the signed file and its SHA-256 (the envelope's document_hash). */
  documentName: string;
}

/**
 * The signed document before its seal: each field drawn in its box (a text tag's box painted white first, so the
 * tag is hidden), each signature typed or drawn, then a signature page listing signers, methods, times, IPs and the
 * document hash. Returns the pdf-lib document, to be sealed (seal.ts) and saved there.
 */
export async function composeSignedPdf(input: ComposeInput): Promise<PDFDocument> {
  const doc = await PDFDocument.load(input.original, { updateMetadata: false }).catch((err: unknown) => {
    throw new SealFailure('original_unreadable', `the original PDF does not load (${err instanceof Error ? err.message : String(err)})`);
  });
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const script = await doc.embedFont(StandardFonts.TimesRomanItalic);
  const pages = doc.getPages();
  const signers = new Map(input.signers.map((s) => [s.id, s]));
  for (const field of input.fields) {
    const page = pages[field.page - 1];
    const signer = signers.get(field.signer_id);
    if (!page || !signer) continue;
    const box = boxOf(page, field);
    if (field.origin === 'tag') page.drawRectangle({ ...box, color: rgb(1, 1, 1) });
    switch (field.type) {
      case 'signature':
      case 'initials': {
        if (field.type === 'initials' && field.value) fitText(page, script, field.value, box);
        else await drawSignature(doc, page, signer, box, script);
        break;
      }
      case 'checkbox':
        if (field.value === 'true') {
          const s = Math.min(box.width, box.height) * 0.8;
          const cx = box.x + box.width / 2;
          const cy = box.y + box.height / 2;
          page.drawLine({ start: { x: cx - s / 2, y: cy - s / 2 }, end: { x: cx + s / 2, y: cy + s / 2 }, thickness: 1.2, color: INK });
          page.drawLine({ start: { x: cx - s / 2, y: cy + s / 2 }, end: { x: cx + s / 2, y: cy - s / 2 }, thickness: 1.2, color: INK });
        }
        break;
      case 'date':
        fitText(page, regular, field.value ? printedDay(field.value) : signer.signed_at ? parisDay(signer.signed_at) : '', box);
        break;
      case 'name':
        fitText(page, regular, field.value ?? signer.full_name ?? '', box);
        break;
      case 'email':
        fitText(page, regular, field.value ?? signer.email, box);
        break;
      default:
        fitText(page, regular, field.value ?? '', box);
    }
  }
  await signaturePage(doc, input);
  doc.setProducer('Paraphe');
  doc.setModificationDate(input.envelope.completed_at ?? new Date());
  return doc;
}

async function signaturePage(doc: PDFDocument, input: ComposeInput) {
  const out = await TextPages.create(doc);
  const e = input.envelope;
  out.text('Page de signatures / Signature page', { size: 16, bold: true, gap: 6 });
  out.text(`Document : ${input.documentName}`, { size: 10 });
  if (e.subject) out.text(`Objet / Subject : ${e.subject}`, { size: 10 });
  out.text(`Enveloppe / Envelope : ${e.id}`, { size: 9, grey: true });
  out.text(`SHA-256 du document original / of the original document : ${e.document_hash ?? '—'}`, { size: 9, grey: true });
  out.text(`Terminée le / Completed on : ${parisTime(e.completed_at)}`, { size: 9, grey: true, gap: 10 });
  for (const [i, s] of input.signers.entries()) {
    out.text(`${i + 1}. ${s.full_name ? `${s.full_name} <${s.email}>` : s.email}`, { size: 11, bold: true });
    out.text(`Vérification / Verification : ${methodLabel(s)}${s.verified_at ? ` — vérifié le / verified on ${parisTime(s.verified_at)}` : ''}`, { indent: 12 });
    out.text(`Consentement / Consent : ${parisTime(s.consent_given_at)} (texte / text ${s.consent_text_version ?? e.consent_text_version})`, { indent: 12 });
    out.text(`Signé le / Signed on : ${parisTime(s.signed_at)}`, { indent: 12 });
    out.text(`Adresse IP / IP address : ${s.signed_ip ?? '—'}`, { indent: 12 });
    out.text(`Navigateur / User agent : ${s.signed_user_agent ?? '—'}`, { indent: 12 });
    out.text(`Signature : ${kindLabel(s.signature_kind)}`, { indent: 12, gap: 8 });
  }
  out.space(6);
  out.text(
    "Ce document est scellé (PAdES-B, ETSI.CAdES.detached) avec le certificat de l'instance Paraphe ; le rapport de preuve de l'enveloppe contient la chaîne d'audit complète. / " +
      "This document is sealed (PAdES-B) with the Paraphe instance's certificate; the envelope's proof report holds the complete audit chain.",
    { size: 8, grey: true },
  );
}
