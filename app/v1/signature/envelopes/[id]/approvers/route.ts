import { created, methodNotAllowed, ok, route } from '@/lib/platform/next';
import { addApprover, addApproverOperation, listApprovers, listApproversOperation } from '@/lib/domain/signature';

export const GET = route(listApproversOperation, async ({ db, orgId, params }) => ok(await listApprovers(db, orgId, params.id)));
export const POST = route(addApproverOperation, async ({ db, orgId, params, body }) => created(await addApprover(db, orgId, params.id, body)));
export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET', 'POST');
