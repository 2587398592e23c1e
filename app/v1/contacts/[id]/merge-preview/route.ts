import { previewMerge } from '@/lib/domain/contacts/merge';
import { mergePreviewOperation } from '@/lib/domain/contacts/operations';
import { methodNotAllowed, ok, route } from '@/lib/platform/http/handler';

export const POST = route(mergePreviewOperation, async ({ db, orgId, params, body }) => ok(await previewMerge(db, orgId, params.id, body)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
