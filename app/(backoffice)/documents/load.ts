import { notFound } from 'next/navigation';
import { z } from 'zod';
import type { Db } from '@/db/client';
import { getDocument } from '@/lib/domain/documents';
import { ApiError } from '@/lib/platform/errors';

/** The org's document for a page, or Next's 404 page (unknown, malformed or another org's id alike). */
export async function loadDocumentOr404(staff: { db: Db; orgId: string }, id: string) {
  if (!z.uuid().safeParse(id).success) notFound();
  try {
    return await getDocument(staff.db, staff.orgId, id);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) notFound();
    throw err;
  }
}
