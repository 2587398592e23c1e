import { restoreContact } from '@/lib/domain/contacts/contacts';
import { restoreContactOperation } from '@/lib/domain/contacts/operations';
import { methodNotAllowed, ok, route } from '@/lib/platform/http/handler';

export const POST = route(restoreContactOperation, async ({ db, orgId, params }) => ok(await restoreContact(db, orgId, params.id)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
