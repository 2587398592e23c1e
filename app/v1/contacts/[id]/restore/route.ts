import { restoreContact } from '@/lib/contacts/contacts';
import { restoreContactOperation } from '@/lib/contacts/operations';
import { methodNotAllowed, ok, route } from '@/lib/http/handler';

export const POST = route(restoreContactOperation, async ({ db, orgId, params }) => ok(await restoreContact(db, orgId, params.id)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
