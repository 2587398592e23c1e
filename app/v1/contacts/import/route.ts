import { importContacts } from '@/lib/domain/contacts/import';
import { importContactsOperation } from '@/lib/domain/contacts/operations';
import { methodNotAllowed, ok, route } from '@/lib/platform/http/handler';

export const POST = route(importContactsOperation, async ({ db, orgId, body }) => ok(await importContacts(db, orgId, body.contacts)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
