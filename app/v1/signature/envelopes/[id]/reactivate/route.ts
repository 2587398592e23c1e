import { clientAddress } from '@/lib/platform/auth';
import { methodNotAllowed, ok, route } from '@/lib/platform/next';
import { actorOf, reactivateEnvelope, reactivateEnvelopeOperation } from '@/lib/domain/signature';

export const POST = route(reactivateEnvelopeOperation, async ({ db, orgId, params, body, req, principal }) =>
  ok(await reactivateEnvelope(db, orgId, params.id, body, actorOf(req, principal, clientAddress(req.headers)))),
);
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
