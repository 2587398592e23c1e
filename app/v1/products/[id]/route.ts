import { deleteProductOperation, getProductOperation, updateProductOperation } from '@/lib/domain/products/operations';
import { deleteProduct, getProduct, updateProduct } from '@/lib/domain/products/products';
import { methodNotAllowed, noContent, ok, route } from '@/lib/platform/http/handler';

export const GET = route(getProductOperation, async ({ db, orgId, params }) => ok(await getProduct(db, orgId, params.id)));
export const PATCH = route(updateProductOperation, async ({ db, orgId, params, body }) => ok(await updateProduct(db, orgId, params.id, body)));
export const DELETE = route(deleteProductOperation, async ({ db, orgId, params }) => {
  await deleteProduct(db, orgId, params.id);
  return noContent();
});
export const { POST, PUT, OPTIONS } = methodNotAllowed('GET', 'PATCH', 'DELETE');
