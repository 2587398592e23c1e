import { methodNotAllowed, ok, route } from '@/lib/http/handler';
import { sendDocumentOperation } from '@/lib/reminders/operations';
import { sendDocument } from '@/lib/reminders/send-document';

export const POST = route(sendDocumentOperation, async ({ db, orgId, params, body }) => ok(await sendDocument(db, orgId, params.id, body)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
