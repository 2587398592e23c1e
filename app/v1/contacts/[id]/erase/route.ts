import { eraseContact } from '@/lib/domain/contacts/gdpr';
import { eraseContactOperation } from '@/lib/domain/contacts/operations';
import { methodNotAllowed, ok, route } from '@/lib/platform/http/handler';

export const POST = route(eraseContactOperation, async ({ db, orgId, params }) => ok(await eraseContact(db, orgId, params.id)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
