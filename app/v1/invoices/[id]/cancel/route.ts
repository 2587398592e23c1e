import { cancelDocument } from '@/lib/billing/cancel-document';
import { cancelDocumentOperation } from '@/lib/billing/operations';
import { ok, route } from '@/lib/http/handler';

export const POST = route(cancelDocumentOperation, async ({ db, orgId, params }) => ok(await cancelDocument(db, orgId, params.id)));
