import { methodNotAllowed, ok, route } from '@/lib/platform/next';
import { setFormActive, setFormActiveOperation } from '@/lib/domain/signature';

export const POST = route(setFormActiveOperation, async ({ db, orgId, params, body }) => ok(await setFormActive(db, orgId, params.id, body.active)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
