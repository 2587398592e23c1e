import type { Metadata } from 'next';
import Link from 'next/link';
import { createProductAction } from '../actions';
import { ProductForm } from '../product-form';

export const metadata: Metadata = { title: 'Nouveau produit' };

export default function NewProductPage() {
  return (
    <>
      <div className="page-header">
        <div>
          <p className="muted">
            <Link href="/products">Produits</Link> /
          </p>
          <h1>Nouveau produit</h1>
        </div>
      </div>
      <ProductForm action={createProductAction} initial={{ vat_rate: '20.00' }} submitLabel="Créer le produit" />
    </>
  );
}
