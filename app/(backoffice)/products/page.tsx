import type { Metadata } from 'next';
import Link from 'next/link';
import { type Column, DataTable, EmptyState, FilterBar, LinkButton, loadListPage, Pager, readListFilters, readListSort, SubmitButton } from '@/components/ui';
import { listProducts, PRODUCT_SORTS, ProductListQuery } from '@/lib/domain/products';
import { formatRate } from '@/lib/platform/format';
import { requireStaffOrg } from '@/lib/platform/next';
import { deleteProductAction } from './actions';

export const metadata: Metadata = { title: 'Produits' };

type ProductRow = Awaited<ReturnType<typeof listProducts>>['data'][number];

const COLUMNS: Array<Column<ProductRow>> = [
  {
    key: 'name',
    header: 'Nom',
    sort: true,
    cell: (p) => (
      <>
        <Link href={`/products/${p.id}/edit`}>{p.name}</Link>
        {p.description && <div className="muted">{p.description}</div>}
      </>
    ),
  },
  { key: 'unit', header: 'Unité', cell: (p) => p.unit ?? <span className="muted">—</span> },
  { key: 'price', header: 'Prix unitaire HT', money: (p) => p.unit_price_cents, sort: { first: 'desc' } },
  { key: 'vat_rate', header: 'TVA', cell: (p) => formatRate(p.vat_rate) },
  {
    key: 'actions',
    header: <span className="sr-only">Actions</span>,
    num: true,
    cell: (p) => (
      <form action={deleteProductAction}>
        <input type="hidden" name="id" value={p.id} />
        <SubmitButton variant="danger" small aria-label={`Supprimer ${p.name}`}>
          Supprimer
        </SubmitButton>
      </form>
    ),
  },
];

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
          <LinkButton aria-keyshortcuts="N" variant="primary" href="/products/new">
            Nouveau produit
          </LinkButton>
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

      <FilterBar base="/products" filtered={Boolean(filters.q)} keep={{ sort: sort?.key, dir: sort?.dir }} submitLabel="Rechercher" resetLabel="Effacer">
        <input type="search" name="q" aria-label="Rechercher" aria-keyshortcuts="/" placeholder="Nom du produit" defaultValue={filters.q} />
      </FilterBar>

      {problem && <div className="notice notice-warning">{problem}</div>}

      <section className="card">
        {page.data.length === 0 ? (
          <EmptyState
            noMatch={{ when: Boolean(filters.q || filters.cursor), message: 'Aucun produit ne correspond.', href: '/products', label: 'Voir tout le catalogue' }}
            action={<Link href="/products/new">Créer un produit</Link>}
          >
            Le catalogue est vide.
          </EmptyState>
        ) : (
          <DataTable label="Produits" cards columns={COLUMNS} rows={page.data} rowKey={(p) => p.id} sort={{ base: '/products', filters: state, current: sort }} />
        )}
      </section>

      <Pager base="/products" filters={state} nextCursor={page.meta.next_cursor} />
    </>
  );
}
