import { createProduct, createProductOperation, listProducts, listProductsOperation } from '@/lib/domain/products';
import { created, methodNotAllowed, ok, route } from '@/lib/platform/next';

export const GET = route(listProductsOperation, async ({ db, orgId, query }) => ok(await listProducts(db, orgId, query)));
export const POST = route(createProductOperation, async ({ db, orgId, body }) => created(await createProduct(db, orgId, body)));
export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET', 'POST');
