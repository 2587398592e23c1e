'use server';

import { revalidatePath } from 'next/cache';
import { retryTransmission } from '@/lib/domain/einvoicing';
import { idOf, staffAction } from '@/lib/platform/next';

/** « Relancer la transmission »: a failed transmission back to pending (POST /v1/invoices/{id}/transmission/retry). */
export const retryTransmissionAction = staffAction(async ({ db, orgId }, id: string) => {
  const docId = idOf(id, 'Document');
  await retryTransmission(db, orgId, docId);
  revalidatePath(`/documents/${docId}`);
  revalidatePath('/documents');
  return { ok: true as const };
});
