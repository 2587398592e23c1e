import { methodNotAllowed, ok, route } from '@/lib/platform/next';
import { listRequestedDocuments, listRequestedDocumentsOperation, replaceRequestedDocuments, replaceRequestedDocumentsOperation } from '@/lib/domain/signature';

export const GET = route(listRequestedDocumentsOperation, async ({ db, orgId, params }) => ok(await listRequestedDocuments(db, orgId, params.id)));
export const PUT = route(replaceRequestedDocumentsOperation, async ({ db, orgId, params, body }) => ok(await replaceRequestedDocuments(db, orgId, params.id, body)));
export const { POST, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET', 'PUT');
