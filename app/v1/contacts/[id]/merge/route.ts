import { mergeContacts } from '@/lib/domain/contacts/merge';
import { mergeOperation } from '@/lib/domain/contacts/operations';
import { methodNotAllowed, ok, route } from '@/lib/platform/http/handler';

export const POST = route(mergeOperation, async ({ db, orgId, params, body }) => ok(await mergeContacts(db, orgId, params.id, body)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
