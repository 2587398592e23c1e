import { methodNotAllowed, ok, route } from '@/lib/platform/next';
import { getSepaMandateOperation, invoiceMandateStatus, revokeInvoiceMandate, revokeSepaMandateOperation } from '@/lib/domain/payments';

export const GET = route(getSepaMandateOperation, async ({ db, orgId, params }) => ok(await invoiceMandateStatus(db, orgId, params.id)));
export const DELETE = route(revokeSepaMandateOperation, async ({ db, orgId, params }) => ok(await revokeInvoiceMandate(db, orgId, params.id)));
export const { POST, PUT, PATCH, OPTIONS } = methodNotAllowed('GET', 'DELETE');
