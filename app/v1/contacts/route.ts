import { createContact, createContactOperation, listContacts, listContactsOperation } from '@/lib/domain/contacts';
import { created, methodNotAllowed, ok, route } from '@/lib/platform/next';

export const GET = route(listContactsOperation, async ({ db, orgId, query }) => ok(await listContacts(db, orgId, query)));
export const POST = route(createContactOperation, async ({ db, orgId, body }) => created(await createContact(db, orgId, body)));
export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET', 'POST');
