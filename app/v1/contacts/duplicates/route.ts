import { findDuplicates } from '@/lib/contacts/duplicates';
import { listDuplicatesOperation } from '@/lib/contacts/operations';
import { methodNotAllowed, ok, route } from '@/lib/http/handler';

export const GET = route(listDuplicatesOperation, async ({ db, orgId, query }) => ok(await findDuplicates(db, orgId, query)));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
