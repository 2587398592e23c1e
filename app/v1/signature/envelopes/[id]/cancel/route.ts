import { clientAddress } from '@/lib/platform/auth';
import { methodNotAllowed, ok, route } from '@/lib/platform/next';
import { actorOf, cancelEnvelope, cancelEnvelopeOperation } from '@/lib/domain/signature';

export const POST = route(cancelEnvelopeOperation, async ({ db, orgId, params, req, principal }) =>
  ok(await cancelEnvelope(db, orgId, params.id, actorOf(req, principal, clientAddress(req.headers)))),
);
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
