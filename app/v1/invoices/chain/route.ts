import { chainState, chainStateOperation } from '@/lib/domain/documents';
import { methodNotAllowed, ok, route } from '@/lib/platform/next';

export const GET = route(chainStateOperation, async ({ db, orgId }) => ok(await chainState(db, orgId)));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
