import { verifyChainNow, verifyChainOperation } from '@/lib/domain/documents';
import { methodNotAllowed, ok, route } from '@/lib/platform/next';

export const POST = route(verifyChainOperation, async ({ db, orgId }) => ok(await verifyChainNow(db, orgId)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
