'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { createProduct, deleteProduct, ProductCreate, ProductPatch, updateProduct } from '@/lib/domain/products';
import { ApiError } from '@/lib/platform/errors';
import { buttonAction, formAction, idOf, refuse } from '@/lib/platform/next';
import { parseEuros } from '@/lib/platform/money';

/** The API payload of the form: the price typed in euros becomes cents; blank optional texts are null. */
function payloadOf(form: FormData): Record<string, unknown> {
  const t = (key: string) => String(form.get(key) ?? '');
  let unit_price_cents = 0;
  try {
    unit_price_cents = parseEuros(t('unit_price').replace(/€/g, '').trim(), 'unit_price_cents');
  } catch {
    refuse({ unit_price_cents: 'Montant en euros, par exemple 1200 ou 49,90.' });
  }
  return {
    name: t('name'),
    description: t('description').trim() || null,
    unit: t('unit').trim() || null,
    unit_price_cents,
    vat_rate: t('vat_rate').replace(',', '.'),
  };
}

export const createProductAction = formAction(
  async ({ db, orgId }, input) => {
    await createProduct(db, orgId, input);
    revalidatePath('/products');
    redirect('/products?saved=1');
  },
  { input: (form: FormData) => ProductCreate.parse(payloadOf(form)) },
);

export const updateProductAction = formAction(
  async ({ db, orgId }, input, id: string) => {
    await updateProduct(db, orgId, idOf(id), input);
    revalidatePath('/products');
    redirect('/products?saved=1');
  },
  { input: (form: FormData) => ProductPatch.parse(payloadOf(form)), notFound: 'Ce produit n’existe plus.' },
);

/** Lines already taken from the product keep their own copy: no document changes. A product already gone is deleted. */
export const deleteProductAction = buttonAction(
  async ({ db, orgId }, { id }) => {
    await deleteProduct(db, orgId, id).catch((err: unknown) => {
      if (!(err instanceof ApiError && err.status === 404)) throw err;
    });
    revalidatePath('/products');
    redirect('/products?deleted=1');
  },
  { input: z.object({ id: z.uuid() }) },
);
