import { methodNotAllowed, noContent, ok, route } from '@/lib/http/handler';
import { deleteEnvelope, deleteEnvelopeOperation, getEnvelope, getEnvelopeOperation } from '@/lib/signature';

export const GET = route(getEnvelopeOperation, async ({ db, orgId, params }) => ok(await getEnvelope(db, orgId, params.id)));
export const DELETE = route(deleteEnvelopeOperation, async ({ db, orgId, params }) => {
  await deleteEnvelope(db, orgId, params.id);
  return noContent();
});
export const { POST, PUT, PATCH, OPTIONS } = methodNotAllowed('GET', 'DELETE');
