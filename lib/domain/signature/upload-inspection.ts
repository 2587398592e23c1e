import { PDFDocument } from 'pdf-lib';
import { ApiError } from '@/lib/platform/errors';
import { findTextTags, type TextTag } from './text-tags';

/*
 * What a signature document's upload reads of the PDF, run in lib/platform/sandbox (documents.ts): pdf-lib parses
 * every object of the file and pdf.js lays out every page's text, and a hostile file keeps either busy for minutes.
 * The worker's time and heap bound what it costs; these bound what a legitimate document may be.
 */

/** Pages a signature document may have (the signer's page shows them all). */
export const MAX_PDF_PAGES = 500;
/** Text tags one document may carry (each becomes a field). */
export const MAX_TEXT_TAGS = 500;

export type UploadInspection =
  | { ok: true; pageCount: number; textTags: TextTag[] }
  | { ok: false; status: number; code: string; message: string; field: string };

const PDF_MAGIC = Buffer.from('%PDF-');

const refused = (code: string, message: string): UploadInspection => ({ ok: false, status: 422, code, message, field: 'file' });
const notAPdf = (why: string) => refused('invalid_pdf', `file: not a readable PDF (${why}).`);

/**
 * The `%PDF-` header within the first 1024 bytes (where readers look for it), a document pdf-lib can load with 1 to
 * MAX_PDF_PAGES pages, no encryption (a password-protected PDF can be neither shown nor composited), then its text
 * tags. Never throws: every refusal is an answer, for the sandbox to carry back.
 */
export async function inspectUpload(bytes: Uint8Array): Promise<UploadInspection> {
  if (Buffer.from(bytes.subarray(0, 1024)).indexOf(PDF_MAGIC) < 0) return notAPdf('no %PDF- header');
  let pageCount: number;
  try {
    const pdf = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false });
    if (pdf.isEncrypted) return refused('pdf_encrypted', 'file: the PDF is encrypted or password-protected; upload an unprotected copy.');
    // A file pdf-lib loads without a page tree (junk after %PDF-) throws here, not at load.
    pageCount = pdf.getPageCount();
  } catch (error) {
    return notAPdf(error instanceof Error ? error.message.split('\n')[0]!.slice(0, 200) : 'unreadable');
  }
  if (pageCount < 1) return notAPdf('it has no page');
  if (pageCount > MAX_PDF_PAGES) return refused('pdf_too_complex', `file: the PDF has ${pageCount} pages; a signature document has at most ${MAX_PDF_PAGES}.`);
  try {
    const textTags = await findTextTags(bytes);
    if (textTags.length > MAX_TEXT_TAGS) return refused('pdf_too_complex', `file: the PDF carries ${textTags.length} text tags; at most ${MAX_TEXT_TAGS}.`);
    return { ok: true, pageCount, textTags };
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, status: error.status, code: error.code, message: error.message, field: error.field ?? 'file' };
    return notAPdf(`its text cannot be read: ${error instanceof Error ? error.message.split('\n')[0]!.slice(0, 160) : 'unreadable'}`);
  }
}
