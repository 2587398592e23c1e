import { and, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { documentRenders } from '@/db/schema';
import { loadDocument } from '@/lib/domain/documents';
import { conflict } from '@/lib/platform/errors';
import { getStorage, type StoredBody } from '@/lib/platform/storage';
import { fileNameOf } from './render-document';

export interface StoredPdf {
  sha256: string;
  size: number;
  fileName: string;
  /** The object's bytes, read only when the client does not already have them (ETag). */
  open(): Promise<StoredBody>;
}

/** The stored PDF of a document, or 409 pdf_not_ready with its render status. */
export async function storedPdf(db: Db, orgId: string, documentId: string): Promise<StoredPdf> {
  const doc = await loadDocument(db, orgId, documentId);
  const [render] = await db
    .select()
    .from(documentRenders)
    .where(and(eq(documentRenders.org_id, orgId), eq(documentRenders.document_id, documentId)));
  if (doc.render_status !== 'ready' || !render?.storage_key || !render.sha256) {
    const why = doc.finalized_at ? `render_status is ${doc.render_status}` : 'the document is a draft (see /preview)';
    throw conflict('pdf_not_ready', `The PDF is not ready: ${why}.`);
  }
  const key = render.storage_key;
  return {
    sha256: render.sha256,
    size: render.size ?? 0,
    fileName: fileNameOf({ id: doc.id, number: doc.number, type: doc.type, language: 'fr' }),
    async open() {
      const object = await getStorage().get(key);
      // The row says it is stored: an absent object is a storage fault, not a state the client can wait out.
      if (!object) throw new Error(`Stored PDF of document ${documentId} is missing from storage (key ${key}).`);
      return object;
    },
  };
}

/**
 * `filename*` carries the name in UTF-8; `filename`, for older clients, an ASCII copy (accents dropped, anything else
 * `_`): a header value outside Latin-1 (’, “, an emoji) makes the Fetch Headers throw, a 500 for that document.
 */
export const contentDisposition = (fileName: string, download = false) => {
  const ascii = fileName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '_')
    .replace(/["\\]/g, '');
  return `${download ? 'attachment' : 'inline'}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
};

/** If-None-Match matches the ETag (strong or weak, one of a list, or *). */
export function etagMatches(ifNoneMatch: string | null, sha256: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const t = tag.trim().replace(/^W\//, '');
    return t === '*' || t === `"${sha256}"`;
  });
}

/**
 * The answer of a stored PDF's download endpoint: the ETag (`"<etag>"`, `Cache-Control: private, no-cache`, the file
 * never changes once stored), 304 when If-None-Match has it, else the file streamed inline or as an attachment.
 */
export async function storedPdfResponse(
  req: Request,
  pdf: { etag: string; fileName: string; open(): Promise<StoredBody> },
  download = false,
): Promise<Response> {
  const cache = { ETag: `"${pdf.etag}"`, 'Cache-Control': 'private, no-cache' };
  if (etagMatches(req.headers.get('if-none-match'), pdf.etag)) return new Response(null, { status: 304, headers: cache });
  const object = await pdf.open();
  return new Response(object.body, {
    status: 200,
    headers: { ...cache, 'Content-Type': 'application/pdf', 'Content-Length': String(object.size), 'Content-Disposition': contentDisposition(pdf.fileName, download) },
  });
}
