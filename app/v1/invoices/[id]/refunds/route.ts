import { recordRefundOperation } from '@/lib/payments/operations';
import { recordRefund } from '@/lib/payments/refunds';
import { created, methodNotAllowed, route } from '@/lib/http/handler';

export const POST = route(recordRefundOperation, async ({ db, orgId, params, body }) => created(await recordRefund(db, orgId, params.id, body)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
