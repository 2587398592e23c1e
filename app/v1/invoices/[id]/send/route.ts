import { methodNotAllowed, ok, route } from '@/lib/platform/next';
import { sendDocument, sendDocumentOperation } from '@/lib/domain/sending';

export const POST = route(sendDocumentOperation, async ({ db, orgId, params, body }) => ok(await sendDocument(db, orgId, params.id, body)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
