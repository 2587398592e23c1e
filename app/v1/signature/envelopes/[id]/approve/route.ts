import { clientAddress } from '@/lib/platform/auth';
import { methodNotAllowed, ok, route } from '@/lib/platform/next';
import { actorOf, approveEnvelope, approveEnvelopeOperation } from '@/lib/domain/signature';

export const POST = route(approveEnvelopeOperation, async ({ db, orgId, params, body, req, principal }) =>
  ok(await approveEnvelope(db, orgId, params.id, body, actorOf(req, principal, clientAddress(req.headers)))),
);
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
