import { defineModule } from '@/lib/platform/manifest';
import { productOperations } from './operations';

/** The catalogue of products and services a document's lines may start from. */
export const manifest = defineModule({ name: 'products', operations: productOperations });

export { productOperations } from './operations';
export { createProduct, listProducts } from './products';
export { deleteProduct, getProduct, PRODUCT_SORTS, updateProduct } from './products';
export { ProductCreate, ProductListQuery, ProductPatch } from './schemas';
export { createProductOperation, deleteProductOperation, getProductOperation, listProductsOperation, updateProductOperation } from './operations';
