import { findDuplicates } from '@/lib/domain/contacts/duplicates';
import { listDuplicatesOperation } from '@/lib/domain/contacts/operations';
import { methodNotAllowed, ok, route } from '@/lib/platform/http/handler';

export const GET = route(listDuplicatesOperation, async ({ db, orgId, query }) => ok(await findDuplicates(db, orgId, query)));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
