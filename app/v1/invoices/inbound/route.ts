import { listInboundInvoices } from '@/lib/domain/einvoicing/inbound';
import { listInboundOperation } from '@/lib/domain/einvoicing/inbound/operations';
import { methodNotAllowed, ok, route } from '@/lib/platform/http/handler';

export const GET = route(listInboundOperation, async ({ db, orgId, query }) => ok(await listInboundInvoices(db, orgId, query)));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
