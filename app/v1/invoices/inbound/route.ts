import { listInboundInvoices, listInboundOperation } from '@/lib/domain/einvoicing';
import { methodNotAllowed, ok, route } from '@/lib/platform/next';

export const GET = route(listInboundOperation, async ({ db, orgId, query }) => ok(await listInboundInvoices(db, orgId, query)));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
