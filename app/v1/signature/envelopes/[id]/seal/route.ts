import { methodNotAllowed, ok, route } from '@/lib/platform/next';
import { retrySeal, retrySealOperation } from '@/lib/domain/signature';

export const POST = route(retrySealOperation, async ({ db, orgId, params }) => ok(await retrySeal(db, orgId, params.id)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
