import { clientAddress } from '@/lib/platform/auth';
import { created, methodNotAllowed, ok, route } from '@/lib/platform/next';
import { actorOf, createEnvelope, createEnvelopeOperation, listEnvelopes, listEnvelopesOperation } from '@/lib/domain/signature';

export const GET = route(listEnvelopesOperation, async ({ db, orgId, query }) => ok(await listEnvelopes(db, orgId, query)));
export const POST = route(createEnvelopeOperation, async ({ db, orgId, body, req, principal }) =>
  created(await createEnvelope(db, orgId, body, actorOf(req, principal, clientAddress(req.headers)))),
);
export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET', 'POST');
