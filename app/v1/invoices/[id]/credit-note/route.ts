import { createCreditNote } from '@/lib/domain/documents/create-credit-note';
import { createCreditNoteOperation } from '@/lib/domain/documents/operations';
import { created, methodNotAllowed, route } from '@/lib/platform/http/handler';

export const POST = route(createCreditNoteOperation, async ({ db, orgId, params, body }) => created(await createCreditNote(db, orgId, params.id, body)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
