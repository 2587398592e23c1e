import { recordRefundOperation } from '@/lib/domain/payments/operations';
import { recordRefund } from '@/lib/domain/payments/refunds';
import { created, methodNotAllowed, route } from '@/lib/platform/http/handler';

export const POST = route(recordRefundOperation, async ({ db, orgId, params, body }) => created(await recordRefund(db, orgId, params.id, body)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
