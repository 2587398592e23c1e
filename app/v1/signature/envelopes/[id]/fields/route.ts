import { methodNotAllowed, ok, route } from '@/lib/platform/next';
import { listFields, listFieldsOperation, replaceFields, replaceFieldsOperation } from '@/lib/domain/signature';

export const GET = route(listFieldsOperation, async ({ db, orgId, params }) => ok(await listFields(db, orgId, params.id)));
export const PUT = route(replaceFieldsOperation, async ({ db, orgId, params, body }) => ok(await replaceFields(db, orgId, params.id, body)));
export const { POST, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET', 'PUT');
