import { created, methodNotAllowed, route } from '@/lib/platform/next';
import { uploadDocument, uploadDocumentOperation } from '@/lib/domain/signature';

export const POST = route(uploadDocumentOperation, async ({ db, orgId, body }) => created(await uploadDocument(db, orgId, body.file)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
