import { IdParams, operation, pageOf } from '@/lib/platform/contract';
import { Product, ProductCreate, ProductListQuery, ProductPatch } from './schemas';

const productTag = 'Products';

export const listProductsOperation = operation({
  method: 'get',
  path: '/v1/products',
  tag: productTag,
  summary: 'List products, newest first',
  scope: 'invoice:read',
  query: ProductListQuery,
  responses: { 200: { description: 'A page of products.', schema: pageOf(Product, 'ProductPage') } },
  errors: [[422, 'invalid_cursor']],
});

export const createProductOperation = operation({
  method: 'post',
  path: '/v1/products',
  tag: productTag,
  summary: 'Create a product',
  scope: 'invoice:write',
  body: ProductCreate,
  responses: { 201: { description: 'The product.', schema: Product } },
});

export const getProductOperation = operation({
  method: 'get',
  path: '/v1/products/{id}',
  tag: productTag,
  summary: 'Retrieve a product',
  scope: 'invoice:read',
  params: IdParams,
  responses: { 200: { description: 'The product.', schema: Product } },
});

export const updateProductOperation = operation({
  method: 'patch',
  path: '/v1/products/{id}',
  tag: productTag,
  summary: 'Update a product',
  scope: 'invoice:write',
  params: IdParams,
  // No body at all is the empty patch: nothing changes.
  body: ProductPatch.prefault({}),
  responses: { 200: { description: 'The updated product.', schema: Product } },
});

export const deleteProductOperation = operation({
  method: 'delete',
  path: '/v1/products/{id}',
  tag: productTag,
  summary: 'Delete a product',
  description: 'Document lines taken from it keep their own copy.',
  scope: 'invoice:write',
  params: IdParams,
  responses: { 204: { description: 'Deleted.' } },
});

export const productOperations = [listProductsOperation, createProductOperation, getProductOperation, updateProductOperation, deleteProductOperation];
