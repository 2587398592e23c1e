import { mergePreviewOperation, previewMerge } from '@/lib/domain/contacts';
import { methodNotAllowed, ok, route } from '@/lib/platform/next';

export const POST = route(mergePreviewOperation, async ({ db, orgId, params, body }) => ok(await previewMerge(db, orgId, params.id, body)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
