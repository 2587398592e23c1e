import { deleteProduct, deleteProductOperation, getProduct, getProductOperation, updateProduct, updateProductOperation } from '@/lib/domain/products';
import { methodNotAllowed, noContent, ok, route } from '@/lib/platform/next';

export const GET = route(getProductOperation, async ({ db, orgId, params }) => ok(await getProduct(db, orgId, params.id)));
export const PATCH = route(updateProductOperation, async ({ db, orgId, params, body }) => ok(await updateProduct(db, orgId, params.id, body)));
export const DELETE = route(deleteProductOperation, async ({ db, orgId, params }) => {
  await deleteProduct(db, orgId, params.id);
  return noContent();
});
export const { POST, PUT, OPTIONS } = methodNotAllowed('GET', 'PATCH', 'DELETE');
