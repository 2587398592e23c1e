'use server';

import { revalidatePath } from 'next/cache';
import { retryTransmission } from '@/lib/domain/einvoicing';
import { formAction, idOf, staffAction } from '@/lib/platform/next';
import { refreshHandler } from './einvoicing-handlers';

/** « Relancer la transmission »: a failed transmission back to pending (POST /v1/invoices/{id}/transmission/retry). */
export const retryTransmissionAction = staffAction(async ({ db, orgId }, id: string) => {
  const docId = idOf(id, 'Document');
  await retryTransmission(db, orgId, docId);
  revalidatePath(`/documents/${docId}`);
  revalidatePath('/documents');
  return { ok: true as const };
});

/** « Actualiser »: the invoice's lifecycle statuses asked of the PA now; the page and the list show them. */
export const refreshLifecycleAction = formAction(
  async (staff, form: FormData, documentId: string) => {
    const reply = await refreshHandler(staff, form, documentId);
    revalidatePath(`/documents/${documentId}`);
    revalidatePath('/documents');
    return reply;
  },
  { notFound: 'Document introuvable.' },
);
