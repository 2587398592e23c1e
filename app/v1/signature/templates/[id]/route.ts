import { methodNotAllowed, noContent, ok, route } from '@/lib/platform/next';
import { deleteTemplate, deleteTemplateOperation, getTemplate, getTemplateOperation } from '@/lib/domain/signature';

export const GET = route(getTemplateOperation, async ({ db, orgId, params }) => ok(await getTemplate(db, orgId, params.id)));
export const DELETE = route(deleteTemplateOperation, async ({ db, orgId, params }) => {
  await deleteTemplate(db, orgId, params.id);
  return noContent();
});
export const { POST, PUT, PATCH, OPTIONS } = methodNotAllowed('GET', 'DELETE');
