import { mergeContacts, mergeOperation } from '@/lib/domain/contacts';
import { methodNotAllowed, ok, route } from '@/lib/platform/next';

export const POST = route(mergeOperation, async ({ db, orgId, params, body }) => ok(await mergeContacts(db, orgId, params.id, body)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
