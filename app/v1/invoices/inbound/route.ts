import { listInboundInvoices } from '@/lib/einvoicing/inbound';
import { listInboundOperation } from '@/lib/einvoicing/inbound/operations';
import { methodNotAllowed, ok, route } from '@/lib/http/handler';

export const GET = route(listInboundOperation, async ({ db, orgId, query }) => ok(await listInboundInvoices(db, orgId, query)));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
