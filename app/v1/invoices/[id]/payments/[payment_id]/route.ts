import { deletePaymentOperation } from '@/lib/payments/operations';
import { deletePayment } from '@/lib/payments/payments';
import { methodNotAllowed, ok, route } from '@/lib/http/handler';

export const DELETE = route(deletePaymentOperation, async ({ db, orgId, params }) => ok(await deletePayment(db, orgId, params.id, params.payment_id)));
export const { GET, POST, PUT, PATCH, OPTIONS } = methodNotAllowed('DELETE');
