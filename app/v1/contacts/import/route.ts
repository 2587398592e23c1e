import { importContacts, importContactsOperation } from '@/lib/domain/contacts';
import { methodNotAllowed, ok, route } from '@/lib/platform/next';

export const POST = route(importContactsOperation, async ({ db, orgId, body }) => ok(await importContacts(db, orgId, body.contacts)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
