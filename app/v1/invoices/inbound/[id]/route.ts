import { getInboundInvoice, getInboundOperation } from '@/lib/domain/einvoicing';
import { methodNotAllowed, ok, route } from '@/lib/platform/next';

export const GET = route(getInboundOperation, async ({ db, orgId, params }) => ok(await getInboundInvoice(db, orgId, params.id)));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
