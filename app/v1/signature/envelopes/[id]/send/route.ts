import { clientAddress } from '@/lib/platform/auth';
import { methodNotAllowed, ok, route } from '@/lib/platform/next';
import { actorOf, sendEnvelope, sendEnvelopeOperation } from '@/lib/domain/signature';

export const POST = route(sendEnvelopeOperation, async ({ db, orgId, params, req, principal }) =>
  ok(await sendEnvelope(db, orgId, params.id, actorOf(req, principal, clientAddress(req.headers)))),
);
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
