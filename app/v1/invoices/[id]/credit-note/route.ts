import { createCreditNote } from '@/lib/billing/create-credit-note';
import { createCreditNoteOperation } from '@/lib/billing/operations';
import { created, route } from '@/lib/http/handler';

export const POST = route(createCreditNoteOperation, async ({ db, orgId, params, body }) => created(await createCreditNote(db, orgId, params.id, body)));
