import { listPayments, listPaymentsOperation, recordPayment, recordPaymentOperation } from '@/lib/domain/payments';
import { created, methodNotAllowed, ok, route } from '@/lib/platform/next';

export const GET = route(listPaymentsOperation, async ({ db, orgId, params, query }) => ok(await listPayments(db, orgId, params.id, query)));
export const POST = route(recordPaymentOperation, async ({ db, orgId, params, body }) => created(await recordPayment(db, orgId, params.id, body)));
export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET', 'POST');
