import { clientAddress } from '@/lib/platform/auth/client-address';
import { methodNotAllowed, ok, route } from '@/lib/platform/http/handler';
import { actorOf, reactivateEnvelope, reactivateEnvelopeOperation } from '@/lib/domain/signature';

export const POST = route(reactivateEnvelopeOperation, async ({ db, orgId, params, body, req, principal }) =>
  ok(await reactivateEnvelope(db, orgId, params.id, body, actorOf(req, principal, clientAddress(req.headers)))),
);
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
