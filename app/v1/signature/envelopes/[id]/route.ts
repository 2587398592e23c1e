import { methodNotAllowed, noContent, ok, route } from '@/lib/platform/next';
import { deleteEnvelope, deleteEnvelopeOperation, getEnvelope, getEnvelopeOperation, patchEnvelope, patchEnvelopeOperation } from '@/lib/domain/signature';

export const GET = route(getEnvelopeOperation, async ({ db, orgId, params }) => ok(await getEnvelope(db, orgId, params.id)));
export const PATCH = route(patchEnvelopeOperation, async ({ db, orgId, params, body }) => ok(await patchEnvelope(db, orgId, params.id, body)));
export const DELETE = route(deleteEnvelopeOperation, async ({ db, orgId, params }) => {
  await deleteEnvelope(db, orgId, params.id);
  return noContent();
});
export const { POST, PUT, OPTIONS } = methodNotAllowed('GET', 'PATCH', 'DELETE');
