import { methodNotAllowed, ok, route } from '@/lib/http/handler';
import { sendForPayment, sendForPaymentOperation } from '@/lib/payments';

export const POST = route(sendForPaymentOperation, async ({ db, orgId, params, body }) => ok(await sendForPayment(db, orgId, params.id, body)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
