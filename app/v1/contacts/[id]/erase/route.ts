import { eraseContact, eraseContactOperation } from '@/lib/domain/contacts';
import { methodNotAllowed, ok, route } from '@/lib/platform/next';

export const POST = route(eraseContactOperation, async ({ db, orgId, params }) => ok(await eraseContact(db, orgId, params.id)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
