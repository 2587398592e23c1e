import { createContact, listContacts } from '@/lib/domain/contacts/contacts';
import { createContactOperation, listContactsOperation } from '@/lib/domain/contacts/operations';
import { created, methodNotAllowed, ok, route } from '@/lib/platform/http/handler';

export const GET = route(listContactsOperation, async ({ db, orgId, query }) => ok(await listContacts(db, orgId, query)));
export const POST = route(createContactOperation, async ({ db, orgId, body }) => created(await createContact(db, orgId, body)));
export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET', 'POST');
