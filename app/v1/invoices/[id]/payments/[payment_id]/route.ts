import { deletePayment, deletePaymentOperation } from '@/lib/domain/payments';
import { methodNotAllowed, ok, route } from '@/lib/platform/next';

export const DELETE = route(deletePaymentOperation, async ({ db, orgId, params }) => ok(await deletePayment(db, orgId, params.id, params.payment_id)));
export const { GET, POST, PUT, PATCH, OPTIONS } = methodNotAllowed('DELETE');
