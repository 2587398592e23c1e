import { createCreditNote } from '@/lib/documents/create-credit-note';
import { createCreditNoteOperation } from '@/lib/documents/operations';
import { created, methodNotAllowed, route } from '@/lib/http/handler';

export const POST = route(createCreditNoteOperation, async ({ db, orgId, params, body }) => created(await createCreditNote(db, orgId, params.id, body)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
