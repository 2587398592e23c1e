import { recordRefund, recordRefundOperation } from '@/lib/domain/payments';
import { created, methodNotAllowed, route } from '@/lib/platform/next';

export const POST = route(recordRefundOperation, async ({ db, orgId, params, body }) => created(await recordRefund(db, orgId, params.id, body)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
