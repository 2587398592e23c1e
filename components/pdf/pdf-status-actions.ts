'use server';

import { idOf, staffAction } from '@/lib/platform/next';
import { renderState, requestRender } from '@/lib/domain/pdf';

/** The render state of one of the staff member's org documents (polled while pending or rendering). */
export const pdfRenderStateAction = staffAction(async ({ db, orgId }, documentId: string) => renderState(db, orgId, idOf(documentId)), {
  notFound: 'Document introuvable.',
  read: true,
});

/** Re-queues the render, as POST /v1/invoices/{id}/render does: a failed render starts over. */
export const retryPdfRenderAction = staffAction(async ({ db, orgId }, documentId: string) => requestRender(db, orgId, idOf(documentId)), {
  notFound: 'Document introuvable.',
});
