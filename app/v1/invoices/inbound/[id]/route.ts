import { getInboundInvoice } from '@/lib/einvoicing/inbound';
import { getInboundOperation } from '@/lib/einvoicing/inbound/operations';
import { methodNotAllowed, ok, route } from '@/lib/http/handler';

export const GET = route(getInboundOperation, async ({ db, orgId, params }) => ok(await getInboundInvoice(db, orgId, params.id)));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
