import { ereportingData, ereportingOperation } from '@/lib/einvoicing';
import { methodNotAllowed, ok, route } from '@/lib/http/handler';

export const GET = route(ereportingOperation, async ({ db, orgId, query }) => ok(await ereportingData(db, orgId, query)));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
