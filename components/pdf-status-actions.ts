'use server';

import { z } from 'zod';
import { ApiError } from '@/lib/errors';
import { requireStaffOrg } from '@/lib/http/staff';
import { renderState, requestRender } from '@/lib/pdf/request-render';
import type { DocumentRender } from '@/lib/pdf/schemas';

export type RenderStateResult = DocumentRender | { error: string };

const DocumentId = z.uuid();

async function staffCall(documentId: string, fn: (staff: Awaited<ReturnType<typeof requireStaffOrg>>, id: string) => Promise<DocumentRender>): Promise<RenderStateResult> {
  const staff = await requireStaffOrg();
  const id = DocumentId.safeParse(documentId);
  if (!id.success) return { error: 'Document introuvable.' };
  try {
    return await fn(staff, id.data);
  } catch (err) {
    if (err instanceof ApiError) return { error: err.message };
    throw err;
  }
}

/** The render state of one of the staff member's org documents (polled while pending or rendering). */
export async function pdfRenderStateAction(documentId: string): Promise<RenderStateResult> {
  return staffCall(documentId, (staff, id) => renderState(staff.db, staff.orgId, id));
}

/** Re-queues the render, as POST /v1/invoices/{id}/render does: a failed render starts over. */
export async function retryPdfRenderAction(documentId: string): Promise<RenderStateResult> {
  return staffCall(documentId, (staff, id) => requestRender(staff.db, staff.orgId, id));
}
