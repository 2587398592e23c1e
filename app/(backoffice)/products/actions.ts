'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { createProduct, deleteProduct, updateProduct } from '@/lib/billing/products';
import { ProductCreate, ProductPatch } from '@/lib/billing/schemas';
import { ApiError, fieldErrors } from '@/lib/errors';
import { requireStaffOrg } from '@/lib/http/staff';
import { parseEuros } from '@/lib/money';

const PRODUCT_FIELDS = ['name', 'description', 'unit', 'unit_price', 'vat_rate'] as const;
export type ProductTexts = Partial<Record<(typeof PRODUCT_FIELDS)[number], string>>;

export type ProductFormState = {
  /** Bumped on every refused submit: the form remounts with the texts typed (React resets a submitted form). */
  attempt: number;
  errors?: Record<string, string>;
  texts?: ProductTexts;
};

const textsOf = (form: FormData): ProductTexts =>
  Object.fromEntries(PRODUCT_FIELDS.map((k) => [k, String(form.get(k) ?? '')]));

/** The API payload of the form: the price typed in euros becomes cents; blank optional texts are null. */
function payloadOf(form: FormData): { payload: Record<string, unknown> } | { errors: Record<string, string> } {
  const t = textsOf(form);
  let unit_price_cents: number;
  try {
    unit_price_cents = parseEuros((t.unit_price ?? '').replace(/€/g, '').trim(), 'unit_price_cents');
  } catch {
    return { errors: { unit_price_cents: 'Montant en euros, par exemple 1200 ou 49,90.' } };
  }
  return {
    payload: {
      name: t.name ?? '',
      description: t.description?.trim() || null,
      unit: t.unit?.trim() || null,
      unit_price_cents,
      vat_rate: (t.vat_rate ?? '').replace(',', '.'),
    },
  };
}

const refused = (prev: ProductFormState, form: FormData, errors: Record<string, string>): ProductFormState => ({
  attempt: prev.attempt + 1,
  errors,
  texts: textsOf(form),
});

export async function createProductAction(prev: ProductFormState, form: FormData): Promise<ProductFormState> {
  const staff = await requireStaffOrg();
  const built = payloadOf(form);
  if ('errors' in built) return refused(prev, form, built.errors);
  const parsed = ProductCreate.safeParse(built.payload);
  if (!parsed.success) return refused(prev, form, fieldErrors(parsed.error));
  await createProduct(staff.db, staff.orgId, parsed.data);
  revalidatePath('/products');
  redirect('/products?saved=1');
}

export async function updateProductAction(id: string, prev: ProductFormState, form: FormData): Promise<ProductFormState> {
  const staff = await requireStaffOrg();
  const built = payloadOf(form);
  if ('errors' in built) return refused(prev, form, built.errors);
  const parsed = ProductPatch.safeParse(built.payload);
  if (!parsed.success) return refused(prev, form, fieldErrors(parsed.error));
  try {
    await updateProduct(staff.db, staff.orgId, z.uuid().parse(id), parsed.data);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return refused(prev, form, { _form: 'Ce produit n’existe plus.' });
    throw err;
  }
  revalidatePath('/products');
  redirect('/products?saved=1');
}

/** Lines already taken from the product keep their own copy: no document changes. */
export async function deleteProductAction(form: FormData): Promise<void> {
  const staff = await requireStaffOrg();
  const id = z.uuid().parse(form.get('id'));
  try {
    await deleteProduct(staff.db, staff.orgId, id);
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 404)) throw err;
  }
  revalidatePath('/products');
  redirect('/products?deleted=1');
}
