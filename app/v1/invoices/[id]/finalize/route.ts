import { finalizeDocument } from '@/lib/billing/finalize-document';
import { finalizeDocumentOperation } from '@/lib/billing/operations';
import { ok, route } from '@/lib/http/handler';
import { enqueueRenders } from '@/lib/pdf/request-render';

export const POST = route(finalizeDocumentOperation, async ({ db, orgId, params }) => {
  const document = await finalizeDocument(db, orgId, params.id);
  // The PDF is rendered by a job once the finalization has committed (lib/pdf; the sweeper catches a lost enqueue).
  await enqueueRenders(orgId, [document.id]);
  return ok(document);
});
