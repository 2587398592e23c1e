import type { Metadata } from 'next';
import Link from 'next/link';
import { SubmitButton } from '@/components/form';
import { Pager, SortHeader } from '@/components/list-page';
import { loadListPage, readListFilters, readListSort } from '@/components/list-query';
import { listProducts, PRODUCT_SORTS } from '@/lib/domain/products/products';
import { ProductListQuery } from '@/lib/domain/products/schemas';
import { formatMoney, formatRate } from '@/lib/platform/format';
import { requireStaffOrg } from '@/lib/platform/http/staff';
import { deleteProductAction } from './actions';

export const metadata: Metadata = { title: 'Produits' };

export default async function ProductsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const staff = await requireStaffOrg();
  const raw = await searchParams;
  const filters = readListFilters(raw, ['q', 'cursor']);
  const sort = readListSort(raw, Object.keys(PRODUCT_SORTS) as Array<keyof typeof PRODUCT_SORTS>);
  const { page, problem } = await loadListPage(ProductListQuery, filters, (query) => listProducts(staff.db, staff.orgId, query, sort));
  // The links of the list keep its sort (the filters' schema ignores these two keys).
  const state = sort ? { ...filters, sort: sort.key, dir: sort.dir } : filters;

  return (
    <>
      <div className="page-header">
        <h1>Produits</h1>
        <div className="actions">
          <Link aria-keyshortcuts="N" className="btn btn-primary" href="/products/new">
            Nouveau produit
          </Link>
        </div>
      </div>
      <p className="muted">Le catalogue pré-remplit les lignes des devis et factures : désignation, unité, prix HT et taux de TVA.</p>

      {raw.saved && (
        <div className="notice notice-success" role="status">
          Produit enregistré.
        </div>
      )}
      {raw.deleted && (
        <div className="notice notice-success" role="status">
          Produit supprimé. Les documents qui l’utilisaient n’ont pas changé.
        </div>
      )}

      <search>
        <form className="toolbar" action="/products">
          <input type="search" name="q" aria-label="Rechercher" aria-keyshortcuts="/" placeholder="Nom du produit" defaultValue={filters.q} />
          {sort && <input type="hidden" name="sort" value={sort.key} />}
          {sort && <input type="hidden" name="dir" value={sort.dir} />}
          <button className="btn" type="submit">
            Rechercher
          </button>
          {filters.q && (
            <Link className="btn btn-ghost" href="/products">
              Effacer
            </Link>
          )}
        </form>
      </search>

      {problem && <div className="notice notice-warning">{problem}</div>}

      <section className="card">
        {page.data.length === 0 ? (
          filters.q || filters.cursor ? (
            <p className="empty">
              Aucun produit ne correspond. <Link href="/products">Voir tout le catalogue</Link>
            </p>
          ) : (
            <div className="empty">
              <p>Le catalogue est vide.</p>
              <p>
                <Link href="/products/new">Créer un produit</Link>
              </p>
            </div>
          )
        ) : (
          <table className="table" aria-label="Produits">
            <thead>
              <tr>
                <SortHeader base="/products" filters={state} sort={sort} name="name" label="Nom" />
                <th scope="col">Unité</th>
                <SortHeader base="/products" filters={state} sort={sort} name="price" label="Prix unitaire HT" first="desc" className="num" />
                <th>TVA</th>
                <th>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {page.data.map((p) => (
                <tr key={p.id}>
                  <td>
                    <Link href={`/products/${p.id}/edit`}>{p.name}</Link>
                    {p.description && <div className="muted">{p.description}</div>}
                  </td>
                  <td>{p.unit ?? <span className="muted">—</span>}</td>
                  <td className="num">{formatMoney(p.unit_price_cents)}</td>
                  <td>{formatRate(p.vat_rate)}</td>
                  <td className="num">
                    <form action={deleteProductAction}>
                      <input type="hidden" name="id" value={p.id} />
                      <SubmitButton className="btn btn-sm btn-danger" aria-label={`Supprimer ${p.name}`}>
                        Supprimer
                      </SubmitButton>
                    </form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <Pager base="/products" filters={state} nextCursor={page.meta.next_cursor} />
    </>
  );
}
