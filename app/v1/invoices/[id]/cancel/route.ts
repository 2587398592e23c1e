import { cancelDocument } from '@/lib/billing/cancel-document';
import { cancelDocumentOperation } from '@/lib/billing/operations';
import { ok, route } from '@/lib/http/handler';
import { enqueueRenders, pendingCreditNotesOf } from '@/lib/pdf/request-render';

export const POST = route(cancelDocumentOperation, async ({ db, orgId, params }) => {
  const document = await cancelDocument(db, orgId, params.id);
  // Cancelling a finalized invoice issued its credit note: render it once the cancellation has committed.
  await enqueueRenders(orgId, await pendingCreditNotesOf(db, orgId, params.id));
  return ok(document);
});
