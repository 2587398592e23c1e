import type { Metadata } from 'next';
import Link from 'next/link';
import { FilterChips, Pager, SortHeader } from '@/components/list-page';
import { listHref, loadListPage, readListFilters, readListSort } from '@/components/list-query';
import { todayParis } from '@/lib/platform/dates';
import { DOCUMENT_SORTS, listDocuments, paidByDocument, summarizeDocuments } from '@/lib/domain/documents/list-documents';
import { type BillingDocument, DocumentListQuery } from '@/lib/domain/documents/schemas';
import { getContact } from '@/lib/domain/contacts/contacts';
import { ApiError } from '@/lib/platform/errors';
import { formatDay, formatMoney, plural, pluralWord } from '@/lib/platform/format';
import { requireStaffOrg } from '@/lib/platform/http/staff';
import { bulkDocumentsAction } from './bulk-actions';
import { BULK_FORM, BulkBar, SelectAll } from './bulk-bar';
import { ContactFilter } from './contact-filter';
import { EInvoicingChip } from './einvoicing-chip';
import { DOCUMENT_LIST_FILTERS, documentName, paymentState, STATUS_CHIPS, STATUS_LABELS, STATUSES, signedAmount, TYPE_LABELS } from './labels';

export const metadata: Metadata = { title: 'Devis & factures' };

const FILTERS = DOCUMENT_LIST_FILTERS;
const SORTS = Object.keys(DOCUMENT_SORTS) as Array<keyof typeof DOCUMENT_SORTS>;
/** Issued, unpaid invoices past their due date (the list's overdue filter, row by row). */
const isOverdue = (d: BillingDocument, today: string) =>
  (d.type === 'facture' || d.type === 'acompte') && (d.status === 'finalized' || d.status === 'sent') && d.due_date !== null && d.due_date < today;

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
  const filtered = FILTERS.some((k) => k !== 'cursor' && filters[k]);
  // The links of the list keep its sort (the filters' schema ignores these two keys).
  const state = sort ? { ...filters, sort: sort.key, dir: sort.dir } : filters;
  const header = (name: keyof typeof DOCUMENT_SORTS, label: string, first: 'asc' | 'desc' = 'asc') => (
    <SortHeader base="/documents" filters={state} sort={sort} name={name} label={label} first={first} className={name.startsWith('total') ? 'num' : undefined} />
  );
  const today = todayParis();
  const [paid, summary] = query
    ? await Promise.all([
        paidByDocument(
          staff.db,
          staff.orgId,
          page.data.map((d) => d.id),
        ),
        summarizeDocuments(staff.db, staff.orgId, query),
      ])
    : [new Map<string, number>(), null];
  const exportHref = listHref('/documents/export.csv', state, {});

  return (
    <>
      <div className="page-header">
        <h1>Devis & factures</h1>
        <div className="actions">
          <Link className="btn" href="/documents/new?type=devis">
            Nouveau devis
          </Link>
          <a className="btn" href={exportHref} download>
            Exporter en CSV
          </a>
          <Link aria-keyshortcuts="N" className="btn btn-primary" href="/documents/new?type=facture">
            Nouvelle facture
          </Link>
        </div>
      </div>

      {raw.deleted && (
        <div className="notice notice-success" role="status">
          Brouillon supprimé.
        </div>
      )}

      <search>
        <form className="toolbar" action="/documents">
          <input type="search" name="q" aria-label="Rechercher" aria-keyshortcuts="/" placeholder="Numéro, objet ou client" defaultValue={filters.q} />
          <select name="type" aria-label="Type" defaultValue={filters.type ?? ''}>
            <option value="">Tous les types</option>
            {Object.entries(TYPE_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
          {filters.status && <input type="hidden" name="status" value={filters.status} />}
          {sort && <input type="hidden" name="sort" value={sort.key} />}
          {sort && <input type="hidden" name="dir" value={sort.dir} />}
          <ContactFilter contact={contact} />
          <label>
            Émis du{' '}
            <input type="date" name="issue_date_from" aria-label="Émis à partir du" defaultValue={filters.issue_date_from} />
          </label>
          <label>
            au <input type="date" name="issue_date_to" aria-label="Émis jusqu’au" defaultValue={filters.issue_date_to} />
          </label>
          <label>
            <input type="checkbox" name="overdue" value="true" defaultChecked={filters.overdue === 'true'} /> En retard de paiement
          </label>
          <button className="btn" type="submit">
            Filtrer
          </button>
          {filtered && (
            <Link className="btn btn-ghost" href="/documents">
              Effacer les filtres
            </Link>
          )}
        </form>
      </search>

      <FilterChips
        base="/documents"
        filters={state}
        name="status"
        values={STATUSES}
        labels={STATUS_LABELS}
        chips={STATUS_CHIPS}
        label="Filtrer par statut"
      />

      {problem && <div className="notice notice-warning">{problem}</div>}

      <section className="card">
        {page.data.length === 0 ? (
          filtered || filters.cursor ? (
            <p className="empty">
              Aucun document ne correspond à ces critères. <Link href="/documents">Voir tous les documents</Link>
            </p>
          ) : (
            <div className="empty">
              <p>Aucun devis ni facture pour l’instant.</p>
              <p>
                <Link href="/documents/new?type=devis">Créer un devis</Link> ou <Link href="/documents/new?type=facture">une facture</Link>.
              </p>
            </div>
          )
        ) : (
          <>
            <BulkBar action={bulkDocumentsAction} />
            <table className="table" aria-label="Documents">
              <thead>
                <tr>
                  <th scope="col" className="select-cell">
                    <SelectAll />
                  </th>
                  {header('number', 'Numéro')}
                  <th scope="col">Type</th>
                  {header('client', 'Client')}
                  {header('issue_date', 'Émis le', 'desc')}
                  {header('deadline', 'Échéance / validité', 'desc')}
                  <th scope="col">Statut</th>
                  {header('total_ht', 'Total HT', 'desc')}
                  {header('total_tva', 'TVA', 'desc')}
                  {header('total_ttc', 'Total TTC', 'desc')}
                </tr>
              </thead>
              <tbody>
                {page.data.map((d) => (
                  <tr key={d.id}>
                    <td className="select-cell">
                      {/* Named by the document's number (the link beside it), so that the row still reads as it starts. */}
                      <input type="checkbox" name="ids" value={d.id} form={BULK_FORM} aria-labelledby={`doc-${d.id}`} />
                    </td>
                    <td>
                      <Link id={`doc-${d.id}`} href={`/documents/${d.id}`}>
                        {d.number ?? <em>{documentName(d)}</em>}
                      </Link>
                      {d.title && <div className="muted">{d.title}</div>}
                    </td>
                    <td>{TYPE_LABELS[d.type]}</td>
                    <td>
                      {d.contact_name ? (
                        <Link href={listHref('/documents', state, { contact_id: d.contact_id })} title="Voir les documents de ce client">
                          {d.contact_name}
                        </Link>
                      ) : (
                        <span className="muted">Contact supprimé</span>
                      )}
                    </td>
                    <td>{formatDay(d.issue_date)}</td>
                    <td>{formatDay(d.type === 'devis' ? d.validity_date : d.due_date) || <span className="muted">—</span>}</td>
                    <td>
                      {paymentState(d, paid.get(d.id) ?? 0) ? (
                        <span className="chip chip-amber">{paymentState(d, paid.get(d.id) ?? 0)}</span>
                      ) : (
                        <span className={`chip ${STATUS_CHIPS[d.status]}`}>{STATUS_LABELS[d.status]}</span>
                      )}
                      {isOverdue(d, today) && <span className="chip chip-red">en retard</span>}
                      <EInvoicingChip doc={d} />
                    </td>
                    <td className="num">{formatMoney(signedAmount(d, d.total_ht))}</td>
                    <td className="num">{formatMoney(signedAmount(d, d.total_tva))}</td>
                    <td className="num">{formatMoney(signedAmount(d, d.total_ttc))}</td>
                  </tr>
                ))}
              </tbody>
              {summary && (
                <tfoot>
                  <tr>
                    <th scope="row" colSpan={7}>
                      {plural(summary.invoices.count, 'facture')} et {pluralWord(summary.invoices.count, 'avoir')}{' '}
                      {filtered ? 'filtrés' : 'au total'}, avoirs déduits
                      {summary.quotes.count > 0 && (
                        <span className="muted">
                          {' '}
                          · {summary.quotes.count} devis ({formatMoney(summary.quotes.total_ttc)} TTC, à part)
                        </span>
                      )}
                    </th>
                    <td className="num">{formatMoney(summary.invoices.total_ht)}</td>
                    <td className="num">{formatMoney(summary.invoices.total_tva)}</td>
                    <td className="num">{formatMoney(summary.invoices.total_ttc)}</td>
                  </tr>
                </tfoot>
              )}
            </table>
          </>
        )}
      </section>

      <Pager base="/documents" filters={state} nextCursor={page.meta.next_cursor} />
    </>
  );
}
