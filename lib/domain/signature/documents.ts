import { v7 as uuidv7 } from 'uuid';
import type { Db } from '@/db/client';
import { signatureDocuments } from '@/db/schema';
import { ApiError } from '@/lib/platform/errors';
import { runSandboxed, sandboxRefusalError, sandboxTask } from '@/lib/platform/sandbox';
import { getStorage, objectKey, sha256Hex } from '@/lib/platform/storage';
import { MAX_PDF_BYTES, type SignatureDocument } from './schemas';
import type { TextTag } from './text-tags';
import type { UploadInspection } from './upload-inspection';

type DocumentRow = typeof signatureDocuments.$inferSelect;

/** The PDF read in a worker (lib/platform/sandbox): what a hostile file may cost is its time and heap. */
export const inspectUploadTask = sandboxTask<Uint8Array, UploadInspection>('lib/domain/signature/upload-inspection.ts', 'inspectUpload', { timeMs: 20_000, heapMb: 512 });

/**
 * What the signers will see, checked before anything is kept (upload-inspection.ts): a PDF of 1 to MAX_PDF_PAGES
 * pages, unencrypted, its text tags well-formed; 422 on `file` otherwise, `pdf_too_complex` when reading it takes more
 * than the worker's time or memory.
 */
async function inspectPdf(bytes: Uint8Array): Promise<{ pageCount: number; textTags: TextTag[] }> {
  const answer = await runSandboxed(inspectUploadTask, bytes).catch((error) => {
    throw sandboxRefusalError(error, { code: 'pdf_too_complex', field: 'file', what: 'the PDF' });
  });
  if (!answer.ok) throw new ApiError(answer.status, answer.code, answer.message, answer.field);
  return answer;
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
  // Read before anything is kept: a malformed tag refuses the upload (422 invalid_text_tag).
  const { pageCount, textTags } = await inspectPdf(bytes);
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
