import { importContacts } from '@/lib/contacts/import';
import { importContactsOperation } from '@/lib/contacts/operations';
import { methodNotAllowed, ok, route } from '@/lib/http/handler';

export const POST = route(importContactsOperation, async ({ db, orgId, body }) => ok(await importContacts(db, orgId, body.contacts)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
