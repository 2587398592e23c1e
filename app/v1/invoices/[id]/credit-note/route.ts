import { createCreditNote, createCreditNoteOperation } from '@/lib/domain/documents';
import { created, methodNotAllowed, route } from '@/lib/platform/next';

export const POST = route(createCreditNoteOperation, async ({ db, orgId, params, body }) => created(await createCreditNote(db, orgId, params.id, body)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
