import { methodNotAllowed, ok, route } from '@/lib/platform/next';
import { sendForPayment, sendForPaymentOperation } from '@/lib/domain/payments';

export const POST = route(sendForPaymentOperation, async ({ db, orgId, params, body }) => ok(await sendForPayment(db, orgId, params.id, body)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
