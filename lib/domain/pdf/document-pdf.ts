import type { Db } from '@/db/client';
import { ApiError } from '@/lib/platform/errors';
import { loadRenderModel } from './model';
import { renderBounded } from './render-bounded';
import { renderAndStore } from './render-stored-document';
import { storedPdf } from './stored-pdf';
import { readAll } from '@/lib/platform/storage';

export interface DocumentPdf {
  filename: string;
  content: Buffer;
  /** stored: the file of record; rendered: the same rendering, made now because another worker was storing it. */
  source: 'stored' | 'rendered';
}

/** The stored PDF of a finalized document, or null while it is not rendered yet. */
export async function readStoredPdf(db: Db, orgId: string, documentId: string): Promise<DocumentPdf | null> {
  let stored: Awaited<ReturnType<typeof storedPdf>>;
  try {
    stored = await storedPdf(db, orgId, documentId);
  } catch (err) {
    if (err instanceof ApiError && err.code === 'pdf_not_ready') return null;
    throw err;
  }
  const object = await stored.open();
  return { filename: stored.fileName, content: await readAll(object.body), source: 'stored' };
}

/**
 * The PDF to attach when a document is sent: never sent without it. The stored file when it is ready; else it
 * is rendered now by the render job's own function (lib/domain/pdf renderStoredDocument), which stores it once as the
 * job would have (the job then finds it done) and hands back the file it stored; and if another worker holds the
 * render at this very moment, the same rendering is made in memory (lib/domain/pdf renderBounded) rather than waiting for
 * it. Outside any transaction.
 */
export async function documentPdfForSending(db: Db, orgId: string, documentId: string): Promise<DocumentPdf> {
  const ready = await readStoredPdf(db, orgId, documentId);
  if (ready) return ready;
  // Not the last attempt: a failure here leaves the document pending for the job's own retries.
  const made = (await renderAndStore(db, orgId, documentId, { lastAttempt: false })).stored;
  // The file this call stored is the file of record: attached as rendered rather than read back from the storage.
  if (made) return { filename: made.fileName, content: made.content, source: 'stored' };
  const stored = await readStoredPdf(db, orgId, documentId);
  if (stored) return stored;
  const rendered = await renderBounded(await loadRenderModel(db, orgId, documentId));
  return { filename: rendered.fileName, content: Buffer.from(rendered.pdf), source: 'rendered' };
}
