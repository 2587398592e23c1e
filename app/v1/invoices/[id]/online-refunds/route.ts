import { createOnlineRefund, createOnlineRefundOperation, listOnlineRefunds, listOnlineRefundsOperation } from '@/lib/domain/payments';
import { created, methodNotAllowed, ok, route } from '@/lib/platform/next';

export const GET = route(listOnlineRefundsOperation, async ({ db, orgId, params, query }) => ok(await listOnlineRefunds(db, orgId, params.id, query)));
// The Idempotency-Key also keys the refund itself: a retry after a lost answer (the key released on a 5xx) asks the provider once.
export const POST = route(createOnlineRefundOperation, async ({ req, db, orgId, params, body }) =>
  created(await createOnlineRefund(db, orgId, params.id, { ...body, idempotency_key: req.headers.get('idempotency-key') })),
);
export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET', 'POST');
