import { PDFDocument } from 'pdf-lib';
import { v7 as uuidv7 } from 'uuid';
import type { Db } from '@/db/client';
import { signatureDocuments } from '@/db/schema';
import { ApiError } from '@/lib/platform/errors';
import { getStorage, objectKey, sha256Hex } from '@/lib/platform/storage';
import { MAX_PDF_BYTES, type SignatureDocument } from './schemas';
import { findTextTags } from './text-tags';

type DocumentRow = typeof signatureDocuments.$inferSelect;

const PDF_MAGIC = Buffer.from('%PDF-');

const notAPdf = (why: string) => new ApiError(422, 'invalid_pdf', `file: not a readable PDF (${why}).`, 'file');

/**
 * What the signers will see, checked before anything is kept: the `%PDF-` header within the first 1024 bytes (where
 * readers look for it), a document pdf-lib can load with at least one page, and no encryption (a password-protected
 * PDF can be neither shown nor composited: 422 `pdf_encrypted`).
 */
export async function inspectPdf(bytes: Uint8Array): Promise<{ pageCount: number }> {
  if (Buffer.from(bytes.subarray(0, 1024)).indexOf(PDF_MAGIC) < 0) throw notAPdf('no %PDF- header');
  let pdf: PDFDocument;
  try {
    pdf = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false });
  } catch (error) {
    throw notAPdf(error instanceof Error ? error.message.split('\n')[0]!.slice(0, 200) : 'unreadable');
  }
  if (pdf.isEncrypted) throw new ApiError(422, 'pdf_encrypted', 'file: the PDF is encrypted or password-protected; upload an unprotected copy.', 'file');
  const pageCount = pdf.getPageCount();
  if (pageCount < 1) throw notAPdf('it has no page');
  return { pageCount };
}

/** A file name kept for display: its last path segment, without control characters, at most 255 characters. */
function displayName(name: string): string {
  const base = name.split(/[\\/]/).at(-1) ?? '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return (clean || 'document.pdf').slice(0, 255);
}

export function publicDocument(row: DocumentRow): SignatureDocument {
  return {
    id: row.id,
    name: row.name,
    byte_size: row.byte_size,
    page_count: row.page_count,
    sha256: row.sha256,
    created_at: row.created_at.toISOString(),
  };
}

/** `POST /v1/signature/documents`: a PDF checked, stored (lib/platform/storage), and its page count, SHA-256 and text tags kept. */
export async function uploadDocument(db: Db, orgId: string, file: File): Promise<SignatureDocument> {
  if (file.size > MAX_PDF_BYTES) throw new ApiError(413, 'payload_too_large', 'file: the PDF is larger than 20 MB.', 'file');
  const bytes = new Uint8Array(await file.arrayBuffer());
  const { pageCount } = await inspectPdf(bytes);
  // Read before anything is kept: a malformed tag refuses the upload (422 invalid_text_tag).
  const textTags = await findTextTags(bytes);
  const id = uuidv7();
  const key = objectKey('signature', orgId, 'documents', `${id}.pdf`);
  const stored = await getStorage().put(key, bytes, { contentType: 'application/pdf' });
  const sha256 = sha256Hex(bytes);
  if (stored.sha256 !== sha256) throw new Error(`storage kept ${stored.sha256} for ${key}, expected ${sha256}`);
  const [row] = await db
    .insert(signatureDocuments)
    .values({ id, org_id: orgId, name: displayName(file.name), storage_key: key, sha256, page_count: pageCount, byte_size: bytes.byteLength, text_tags: textTags })
    .returning();
  return publicDocument(row!);
}
