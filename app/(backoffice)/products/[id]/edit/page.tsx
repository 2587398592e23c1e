import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { z } from 'zod';
import { SubmitButton } from '@/components/ui';
import { getProduct } from '@/lib/domain/products';
import { ApiError } from '@/lib/platform/errors';
import { formatMoneyInput } from '@/lib/platform/format';
import { requireStaffOrg } from '@/lib/platform/next';
import { deleteProductAction, updateProductAction } from '../../actions';
import { ProductForm } from '../../product-form';

export const metadata: Metadata = { title: 'Modifier le produit' };

export default async function EditProductPage({ params }: { params: Promise<{ id: string }> }) {
  const staff = await requireStaffOrg();
  const { id } = await params;
  if (!z.uuid().safeParse(id).success) notFound();
  let product: Awaited<ReturnType<typeof getProduct>>;
  try {
    product = await getProduct(staff.db, staff.orgId, id);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) notFound();
    throw err;
  }
  return (
    <>
      <div className="page-header">
        <div>
          <p className="muted">
            <Link href="/products">Produits</Link> /
          </p>
          <h1>{product.name}</h1>
        </div>
        <div className="actions">
          <form action={deleteProductAction}>
            <input type="hidden" name="id" value={product.id} />
            <SubmitButton variant="danger">Supprimer le produit</SubmitButton>
          </form>
        </div>
      </div>
      <p className="muted">Les lignes déjà tirées de ce produit gardent leur propre copie : le modifier ou le supprimer ne change aucun document.</p>
      <ProductForm
        action={updateProductAction.bind(null, product.id)}
        initial={{
          name: product.name,
          description: product.description ?? '',
          unit: product.unit ?? '',
          unit_price: formatMoneyInput(product.unit_price_cents),
          vat_rate: product.vat_rate,
        }}
        submitLabel="Enregistrer"
      />
    </>
  );
}
