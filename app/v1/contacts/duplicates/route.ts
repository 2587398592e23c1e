import { findDuplicates, listDuplicatesOperation } from '@/lib/domain/contacts';
import { methodNotAllowed, ok, route } from '@/lib/platform/next';

export const GET = route(listDuplicatesOperation, async ({ db, orgId, query }) => ok(await findDuplicates(db, orgId, query)));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
