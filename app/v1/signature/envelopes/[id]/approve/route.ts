import { clientAddress } from '@/lib/auth/client-address';
import { methodNotAllowed, ok, route } from '@/lib/http/handler';
import { actorOf, approveEnvelope, approveEnvelopeOperation } from '@/lib/signature';

export const POST = route(approveEnvelopeOperation, async ({ db, orgId, params, body, req, principal }) =>
  ok(await approveEnvelope(db, orgId, params.id, body, actorOf(req, principal, clientAddress(req.headers)))),
);
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
