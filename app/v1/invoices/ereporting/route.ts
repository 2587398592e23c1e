import { ereportingData, ereportingOperation } from '@/lib/domain/einvoicing';
import { methodNotAllowed, ok, route } from '@/lib/platform/next';

export const GET = route(ereportingOperation, async ({ db, orgId, query }) => ok(await ereportingData(db, orgId, query)));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
