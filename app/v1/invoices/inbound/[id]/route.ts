import { getInboundInvoice } from '@/lib/domain/einvoicing/inbound';
import { getInboundOperation } from '@/lib/domain/einvoicing/inbound/operations';
import { methodNotAllowed, ok, route } from '@/lib/platform/http/handler';

export const GET = route(getInboundOperation, async ({ db, orgId, params }) => ok(await getInboundInvoice(db, orgId, params.id)));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
