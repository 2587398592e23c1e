import { methodNotAllowed, noContent, route } from '@/lib/platform/next';
import { removeApprover, removeApproverOperation } from '@/lib/domain/signature';

export const DELETE = route(removeApproverOperation, async ({ db, orgId, params }) => {
  await removeApprover(db, orgId, params.id, params.approver_id);
  return noContent();
});
export const { GET, POST, PUT, PATCH, OPTIONS } = methodNotAllowed('DELETE');
