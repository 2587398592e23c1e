import { restoreContact, restoreContactOperation } from '@/lib/domain/contacts';
import { methodNotAllowed, ok, route } from '@/lib/platform/next';

export const POST = route(restoreContactOperation, async ({ db, orgId, params }) => ok(await restoreContact(db, orgId, params.id)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
