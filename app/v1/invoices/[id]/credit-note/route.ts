import { createCreditNote } from '@/lib/billing/create-credit-note';
import { createCreditNoteOperation } from '@/lib/billing/operations';
import { created, methodNotAllowed, route } from '@/lib/http/handler';

export const POST = route(createCreditNoteOperation, async ({ db, orgId, params, body }) => created(await createCreditNote(db, orgId, params.id, body)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
