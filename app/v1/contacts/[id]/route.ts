import { deleteContact, deleteContactOperation, getContact, getContactOperation, updateContact, updateContactOperation } from '@/lib/domain/contacts';
import { methodNotAllowed, ok, route } from '@/lib/platform/next';

export const GET = route(getContactOperation, async ({ db, orgId, params }) => ok(await getContact(db, orgId, params.id)));
export const PATCH = route(updateContactOperation, async ({ db, orgId, params, body }) => ok(await updateContact(db, orgId, params.id, body)));
// 200 with the contact rather than 204: the delete is soft, and the answer shows deleted_at.
export const DELETE = route(deleteContactOperation, async ({ db, orgId, params }) => ok(await deleteContact(db, orgId, params.id)));
export const { POST, PUT, OPTIONS } = methodNotAllowed('GET', 'PATCH', 'DELETE');
