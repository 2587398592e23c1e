import { createProductOperation, listProductsOperation } from '@/lib/domain/products/operations';
import { createProduct, listProducts } from '@/lib/domain/products/products';
import { created, methodNotAllowed, ok, route } from '@/lib/platform/http/handler';

export const GET = route(listProductsOperation, async ({ db, orgId, query }) => ok(await listProducts(db, orgId, query)));
export const POST = route(createProductOperation, async ({ db, orgId, body }) => created(await createProduct(db, orgId, body)));
export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET', 'POST');
