import { methodNotAllowed, noContent, ok, route } from '@/lib/platform/next';
import { deleteForm, deleteFormOperation, getForm, getFormOperation } from '@/lib/domain/signature';

export const GET = route(getFormOperation, async ({ db, orgId, params }) => ok(await getForm(db, orgId, params.id)));
export const DELETE = route(deleteFormOperation, async ({ db, orgId, params }) => {
  await deleteForm(db, orgId, params.id);
  return noContent();
});
export const { POST, PUT, PATCH, OPTIONS } = methodNotAllowed('GET', 'DELETE');
