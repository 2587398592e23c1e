import { deletePaymentOperation } from '@/lib/billing/operations';
import { deletePayment } from '@/lib/billing/payments';
import { methodNotAllowed, ok, route } from '@/lib/http/handler';

export const DELETE = route(deletePaymentOperation, async ({ db, orgId, params }) => ok(await deletePayment(db, orgId, params.id, params.payment_id)));
export const { GET, POST, PUT, PATCH, OPTIONS } = methodNotAllowed('DELETE');
