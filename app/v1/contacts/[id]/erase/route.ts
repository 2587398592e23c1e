import { eraseContact } from '@/lib/contacts/gdpr';
import { eraseContactOperation } from '@/lib/contacts/operations';
import { methodNotAllowed, ok, route } from '@/lib/http/handler';

export const POST = route(eraseContactOperation, async ({ db, orgId, params }) => ok(await eraseContact(db, orgId, params.id)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
