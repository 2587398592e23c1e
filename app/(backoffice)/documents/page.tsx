import type { Metadata } from 'next';
import Link from 'next/link';
import { todayParis } from '@/lib/billing/dates';
import { listDocuments } from '@/lib/billing/list-documents';
import { type BillingDocument, DocumentListQuery } from '@/lib/billing/schemas';
import { getContact } from '@/lib/contacts/contacts';
import { ApiError, fieldErrors } from '@/lib/errors';
import type { Page } from '@/lib/http/pagination';
import { requireStaffOrg } from '@/lib/http/staff';
import { formatEuros } from '@/lib/money';
import { ContactFilter } from './contact-filter';
import { dayLabel, documentName, STATUS_CHIPS, STATUS_LABELS, STATUSES, TYPE_LABELS } from './labels';

export const metadata: Metadata = { title: 'Devis & factures' };

const FILTERS = ['type', 'status', 'contact_id', 'q', 'issue_date_from', 'issue_date_to', 'overdue', 'cursor'] as const;
type Filters = Partial<Record<(typeof FILTERS)[number], string>>;

/** The list URL with some filters changed (undefined removes one); a new filter always restarts at the first page. */
function hrefWith(current: Filters, changes: Filters): string {
  const next: Filters = { ...current, cursor: undefined, ...changes };
  const params = new URLSearchParams(Object.entries(next).filter((e): e is [string, string] => Boolean(e[1])));
  const search = params.toString();
  return search ? `/documents?${search}` : '/documents';
}

/** Issued, unpaid invoices past their due date (the list's overdue filter, row by row). */
const isOverdue = (d: BillingDocument, today: string) =>
  (d.type === 'facture' || d.type === 'acompte') && (d.status === 'finalized' || d.status === 'sent') && d.due_date !== null && d.due_date < today;

export default async function DocumentsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const staff = await requireStaffOrg();
  const raw = await searchParams;
  // A filter left blank in the form arrives as "q=": it is no filter, not a blank search.
  const filters: Filters = Object.fromEntries(
    FILTERS.flatMap((k) => (typeof raw[k] === 'string' && raw[k].trim() !== '' ? [[k, raw[k].trim()]] : [])),
  );
  const parsed = DocumentListQuery.safeParse(filters);

  let page: Page<BillingDocument> = { data: [], meta: { next_cursor: null } };
  let problem: string | null = null;
  if (!parsed.success) {
    problem = Object.entries(fieldErrors(parsed.error))
      .map(([field, message]) => `${field}: ${message}`)
      .join(' · ');
  } else {
    try {
      page = await listDocuments(staff.db, staff.orgId, parsed.data);
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 'invalid_cursor')) throw err;
      problem = 'Ce lien de pagination n’est plus valable : reprenez à la première page.';
    }
  }
  let contact: { id: string; name: string } | null = null;
  if (parsed.success && parsed.data.contact_id) {
    try {
      const c = await getContact(staff.db, staff.orgId, parsed.data.contact_id);
      contact = { id: c.id, name: c.display_name ?? 'Contact effacé' };
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404)) throw err;
      contact = { id: parsed.data.contact_id, name: 'Contact inconnu' };
    }
  }
  const filtered = FILTERS.some((k) => k !== 'cursor' && filters[k]);
  const today = todayParis();

  return (
    <>
      <div className="page-header">
        <h1>Devis & factures</h1>
        <div className="actions">
          <Link className="btn" href="/documents/new?type=devis">
            Nouveau devis
          </Link>
          <Link className="btn btn-primary" href="/documents/new?type=facture">
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
          <input type="search" name="q" aria-label="Rechercher" placeholder="Numéro, objet ou client" defaultValue={filters.q} />
          <select name="type" aria-label="Type" defaultValue={filters.type ?? ''}>
            <option value="">Tous les types</option>
            {Object.entries(TYPE_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
          {filters.status && <input type="hidden" name="status" value={filters.status} />}
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

      <nav className="toolbar" aria-label="Filtrer par statut">
        <Link className="chip" href={hrefWith(filters, { status: undefined })} aria-current={filters.status ? undefined : 'true'}>
          Tous
        </Link>
        {STATUSES.map((s) => (
          <Link key={s} className={`chip ${STATUS_CHIPS[s]}`} href={hrefWith(filters, { status: s })} aria-current={filters.status === s ? 'true' : undefined}>
            {STATUS_LABELS[s]}
          </Link>
        ))}
      </nav>

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
          <table className="table" aria-label="Documents">
            <thead>
              <tr>
                <th>Numéro</th>
                <th>Type</th>
                <th>Client</th>
                <th>Émis le</th>
                <th>Échéance / validité</th>
                <th>Statut</th>
                <th className="num">Total HT</th>
                <th className="num">TVA</th>
                <th className="num">Total TTC</th>
              </tr>
            </thead>
            <tbody>
              {page.data.map((d) => (
                <tr key={d.id}>
                  <td>
                    <Link href={`/documents/${d.id}`}>{d.number ?? <em>{documentName(d)}</em>}</Link>
                    {d.title && <div className="muted">{d.title}</div>}
                  </td>
                  <td>{TYPE_LABELS[d.type]}</td>
                  <td>
                    {d.contact_name ? (
                      <Link href={hrefWith(filters, { contact_id: d.contact_id })} title="Voir les documents de ce client">
                        {d.contact_name}
                      </Link>
                    ) : (
                      <span className="muted">Contact supprimé</span>
                    )}
                  </td>
                  <td>{dayLabel(d.issue_date)}</td>
                  <td>{dayLabel(d.type === 'devis' ? d.validity_date : d.due_date) || <span className="muted">—</span>}</td>
                  <td>
                    <span className={`chip ${STATUS_CHIPS[d.status]}`}>{STATUS_LABELS[d.status]}</span>
                    {isOverdue(d, today) && <span className="chip chip-red">en retard</span>}
                  </td>
                  <td className="num">{formatEuros(d.total_ht)}</td>
                  <td className="num">{formatEuros(d.total_tva)}</td>
                  <td className="num">{formatEuros(d.total_ttc)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      {(filters.cursor || page.meta.next_cursor) && (
        <div className="toolbar">
          {filters.cursor && (
            <Link className="btn" href={hrefWith(filters, {})}>
              Première page
            </Link>
          )}
          {page.meta.next_cursor && (
            <Link className="btn" href={hrefWith(filters, { cursor: page.meta.next_cursor })} rel="next">
              Suivant
            </Link>
          )}
        </div>
      )}
    </>
  );
}
