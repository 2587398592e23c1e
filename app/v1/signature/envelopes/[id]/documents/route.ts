import { created, methodNotAllowed, ok, route } from '@/lib/platform/next';
import { attachDocument, attachDocumentOperation, listAttachedDocuments, listAttachedDocumentsOperation } from '@/lib/domain/signature';

export const GET = route(listAttachedDocumentsOperation, async ({ db, orgId, params }) => ok(await listAttachedDocuments(db, orgId, params.id)));
export const POST = route(attachDocumentOperation, async ({ db, orgId, params, body }) => created(await attachDocument(db, orgId, params.id, body)));
export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET', 'POST');
