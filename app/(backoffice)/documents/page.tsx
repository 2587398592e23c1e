import type { Metadata } from 'next';
import Link from 'next/link';
import { type Column, DataTable, EmptyState, FilterBar, FilterChips, FilterSelect, LinkButton, listHref, loadListPage, MoneyCell, Pager, readListFilters, readListSort, StatusChip } from '@/components/ui';
import { todayParis } from '@/lib/platform/dates';
import { type BillingDocument, DOCUMENT_SORTS, DocumentListQuery, listDocuments, overdueAmong, paidByDocument, summarizeDocuments } from '@/lib/domain/documents';
import { getContact } from '@/lib/domain/contacts';
import { ApiError } from '@/lib/platform/errors';
import { formatDay, formatMoney, plural, pluralWord } from '@/lib/platform/format';
import { requireStaffOrg } from '@/lib/platform/next';
import { bulkDocumentsAction } from './bulk-actions';
import { BULK_FORM, BulkBar, SelectAll } from './bulk-bar';
import { ContactFilter } from './contact-filter';
import { EInvoicingChip } from './einvoicing-chip';
import { DOCUMENT_LIST_FILTERS, documentName, paymentState, STATUS_CHIPS, STATUS_LABELS, STATUSES, signedAmount, statusLabel, TYPE_LABELS } from './labels';

export const metadata: Metadata = { title: 'Devis & factures' };

const FILTERS = DOCUMENT_LIST_FILTERS;
const SORTS = Object.keys(DOCUMENT_SORTS) as Array<keyof typeof DOCUMENT_SORTS>;

export default async function DocumentsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const staff = await requireStaffOrg();
  const raw = await searchParams;
  const filters = readListFilters(raw, FILTERS);
  const sort = readListSort(raw, SORTS);
  const { page, query, problem } = await loadListPage(DocumentListQuery, filters, (q) => listDocuments(staff.db, staff.orgId, q, sort));
  let contact: { id: string; name: string } | null = null;
  if (query?.contact_id) {
    try {
      const c = await getContact(staff.db, staff.orgId, query.contact_id);
      contact = { id: c.id, name: c.display_name ?? 'Contact effacé' };
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404)) throw err;
      contact = { id: query.contact_id, name: 'Contact inconnu' };
    }
  }
  const active = FILTERS.filter((k) => k !== 'cursor' && filters[k]).length;
  const filtered = active > 0;
  // The links of the list keep its sort (the filters' schema ignores these two keys).
  const state = sort ? { ...filters, sort: sort.key, dir: sort.dir } : filters;
  const today = todayParis();
  const ids = page.data.map((d) => d.id);
  // « en retard » row by row by the overdue filter's own definition (overdueSql), as the dashboard counts it.
  const [paid, overdue, summary] = query
    ? await Promise.all([paidByDocument(staff.db, staff.orgId, ids), overdueAmong(staff.db, staff.orgId, ids, today), summarizeDocuments(staff.db, staff.orgId, query)])
    : [new Map<string, number>(), new Set<string>(), null];
  const exportHref = listHref('/documents/export.csv', state, {});
  const columns: Array<Column<BillingDocument>> = [
    // The row's checkbox is named by the document's number (the link beside it), so that the row still reads as it starts.
    {
      key: 'select',
      header: <SelectAll />,
      className: 'select-cell',
      cell: (d) => <input type="checkbox" name="ids" value={d.id} form={BULK_FORM} aria-labelledby={`doc-${d.id}`} />,
    },
    {
      key: 'number',
      header: 'Numéro',
      sort: true,
      card: 'title',
      cell: (d) => (
        <>
          <Link id={`doc-${d.id}`} href={`/documents/${d.id}`}>
            {d.number ?? <em>{documentName(d)}</em>}
          </Link>
          {d.title && <div className="muted">{d.title}</div>}
        </>
      ),
    },
    { key: 'type', header: 'Type', cell: (d) => TYPE_LABELS[d.type] },
    {
      key: 'client',
      header: 'Client',
      sort: true,
      cell: (d) =>
        d.contact_name ? (
          <Link href={listHref('/documents', state, { contact_id: d.contact_id })} title="Voir les documents de ce client">
            {d.contact_name}
          </Link>
        ) : (
          <span className="muted">Contact supprimé</span>
        ),
    },
    { key: 'issue_date', header: 'Émis le', sort: { first: 'desc' }, cell: (d) => formatDay(d.issue_date) },
    {
      key: 'deadline',
      header: 'Échéance / validité',
      sort: { first: 'desc' },
      cell: (d) => formatDay(d.type === 'devis' ? d.validity_date : d.due_date) || <span className="muted">—</span>,
    },
    {
      key: 'status',
      header: 'Statut',
      card: 'chips',
      cell: (d) => {
        const partly = paymentState(d, paid.get(d.id) ?? 0);
        return (
          <>
            {partly ? <StatusChip tone="chip-amber">{partly}</StatusChip> : <StatusChip tone={STATUS_CHIPS[d.status]}>{statusLabel(d)}</StatusChip>}
            {overdue.has(d.id) && <StatusChip tone="chip-red">en retard</StatusChip>}
            <EInvoicingChip doc={d} />
          </>
        );
      },
    },
    { key: 'total_ht', header: 'Total HT', money: (d) => signedAmount(d, d.total_ht), sort: { first: 'desc' }, card: 'hide' },
    { key: 'total_tva', header: 'TVA', money: (d) => signedAmount(d, d.total_tva), sort: { first: 'desc' }, card: 'hide' },
    { key: 'total_ttc', header: 'Total TTC', money: (d) => signedAmount(d, d.total_ttc), sort: { first: 'desc' }, card: 'figure' },
  ];

  return (
    <>
      <div className="page-header">
        <h1>Devis & factures</h1>
        <div className="actions">
          <LinkButton href="/documents/new?type=devis">
            Nouveau devis
          </LinkButton>
          <LinkButton aria-keyshortcuts="N" variant="primary" href="/documents/new?type=facture">
            Nouvelle facture
          </LinkButton>
        </div>
      </div>

      {raw.deleted && (
        <div className="notice notice-success" role="status">
          Brouillon supprimé.
        </div>
      )}

      <FilterBar
        base="/documents"
        filtered={filtered}
        active={active}
        keep={{ status: filters.status, sort: sort?.key, dir: sort?.dir }}
        chips={
          <FilterChips base="/documents" filters={state} name="status" values={STATUSES} labels={STATUS_LABELS} chips={STATUS_CHIPS} label="Filtrer par statut" />
        }
      >
        <input type="search" name="q" aria-label="Rechercher" aria-keyshortcuts="/" placeholder="Numéro, objet ou client" defaultValue={filters.q} />
        <FilterSelect name="type" label="Type" allLabel="Tous les types" options={TYPE_LABELS} value={filters.type} />
        <ContactFilter contact={contact} />
        <label>
          Émis du <input type="date" name="issue_date_from" aria-label="Émis à partir du" defaultValue={filters.issue_date_from} />
        </label>
        <label>
          au <input type="date" name="issue_date_to" aria-label="Émis jusqu’au" defaultValue={filters.issue_date_to} />
        </label>
        <label>
          <input type="checkbox" name="outstanding" value="true" defaultChecked={filters.outstanding === 'true'} /> À encaisser
        </label>
        <label>
          <input type="checkbox" name="overdue" value="true" defaultChecked={filters.overdue === 'true'} /> En retard de paiement
        </label>
        <label>
          <input type="checkbox" name="awaiting_answer" value="true" defaultChecked={filters.awaiting_answer === 'true'} /> Devis en attente de réponse
        </label>
      </FilterBar>

      {problem && <div className="notice notice-warning">{problem}</div>}

      <section className="card">
        {page.data.length === 0 ? (
          <EmptyState
            noMatch={{ when: filtered || Boolean(filters.cursor), message: 'Aucun document ne correspond à ces critères.', href: '/documents', label: 'Voir tous les documents' }}
            action={
              <>
                <Link href="/documents/new?type=devis">Créer un devis</Link> ou <Link href="/documents/new?type=facture">une facture</Link>.
              </>
            }
          >
            Aucun devis ni facture pour l’instant.
          </EmptyState>
        ) : (
          <>
            <BulkBar action={bulkDocumentsAction} />
            <DataTable
              label="Documents"
              columns={columns}
              rows={page.data}
              rowKey={(d) => d.id}
              cards
              sort={{ base: '/documents', filters: state, current: sort }}
              csv={{ href: exportHref }}
              foot={
                summary && (
                  <tr>
                    <th scope="row" colSpan={7}>
                      {plural(summary.invoices.count, 'facture')} et {pluralWord(summary.invoices.count, 'avoir')} {filtered ? 'filtrés' : 'au total'}, avoirs
                      déduits
                      {summary.quotes.count > 0 && (
                        <span className="muted">
                          {' '}
                          · {summary.quotes.count} devis ({formatMoney(summary.quotes.total_ttc)} TTC, à part)
                        </span>
                      )}
                    </th>
                    <MoneyCell cents={summary.invoices.total_ht} label="Total HT" />
                    <MoneyCell cents={summary.invoices.total_tva} label="TVA" />
                    <MoneyCell cents={summary.invoices.total_ttc} label="Total TTC" />
                  </tr>
                )
              }
            />
          </>
        )}
      </section>

      <Pager base="/documents" filters={state} nextCursor={page.meta.next_cursor} />
    </>
  );
}
