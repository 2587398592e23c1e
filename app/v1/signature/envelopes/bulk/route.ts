import { clientAddress } from '@/lib/platform/auth';
import { methodNotAllowed, ok, route } from '@/lib/platform/next';
import { actorOf, bulkSend, bulkSendOperation } from '@/lib/domain/signature';

export const POST = route(bulkSendOperation, async ({ db, orgId, body, req, principal }) =>
  ok(await bulkSend(db, orgId, body, { actor: actorOf(req, principal, clientAddress(req.headers)), idempotencyKey: req.headers.get('idempotency-key') })),
);
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
