import type { Metadata } from 'next';
import Link from 'next/link';
import { FilterChips, Pager } from '@/components/list-page';
import { listHref, loadListPage, readListFilters } from '@/components/list-query';
import { getContact } from '@/lib/domain/contacts';
import { ApiError } from '@/lib/platform/errors';
import { formatDay, formatInstant, formatMoney } from '@/lib/platform/format';
import { requireStaffOrg } from '@/lib/platform/http/staff';
import { listRecurringTemplates, RecurringListQuery, templateContacts } from '@/lib/domain/recurring';
import { ContactFilter } from '../documents/contact-filter';
import { FREQUENCY_LABELS, RECURRING_LIST_FILTERS, TEMPLATE_STATUS_CHIPS, TEMPLATE_STATUS_LABELS, TEMPLATE_STATUSES } from './labels';

export const metadata: Metadata = { title: 'Facturation récurrente' };

const FILTERS = RECURRING_LIST_FILTERS;

/** The templates (GET /v1/recurring-invoices for the staff's org): newest first, filtered by status and client. */
export default async function RecurringPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const staff = await requireStaffOrg();
  const raw = await searchParams;
  const filters = readListFilters(raw, FILTERS);
  const { page, query, problem } = await loadListPage(RecurringListQuery, filters, (q) => listRecurringTemplates(staff.db, staff.orgId, q));
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
  const names = await templateContacts(
    staff.db,
    staff.orgId,
    page.data.map((t) => t.contact_id),
  );
  const filtered = FILTERS.some((k) => k !== 'cursor' && filters[k]);

  return (
    <>
      <div className="page-header">
        <h1>Facturation récurrente</h1>
        <div className="actions">
          <Link aria-keyshortcuts="N" className="btn btn-primary" href="/recurring/new">
            Nouveau modèle
          </Link>
        </div>
      </div>
      <p className="muted">
        Un modèle génère une facture à chaque échéance (mensuelle, trimestrielle ou annuelle), en brouillon ou finalisée et envoyée
        automatiquement, puis prélevée si le client a un mandat SEPA.
      </p>

      {raw.deleted && (
        <div className="notice notice-success" role="status">
          Modèle supprimé. Les factures qu’il a générées restent.
        </div>
      )}

      <search>
        <form className="toolbar" action="/recurring">
          {filters.status && <input type="hidden" name="status" value={filters.status} />}
          <ContactFilter contact={contact} />
          {filtered && (
            <Link className="btn btn-ghost" href="/recurring">
              Effacer les filtres
            </Link>
          )}
        </form>
      </search>

      <FilterChips
        base="/recurring"
        filters={filters}
        name="status"
        values={TEMPLATE_STATUSES}
        labels={TEMPLATE_STATUS_LABELS}
        chips={TEMPLATE_STATUS_CHIPS}
        label="Filtrer par statut"
      />

      {problem && <div className="notice notice-warning">{problem}</div>}

      <section className="card">
        {page.data.length === 0 ? (
          filtered || filters.cursor ? (
            <p className="empty">
              Aucun modèle ne correspond à ces critères. <Link href="/recurring">Voir tous les modèles</Link>
            </p>
          ) : (
            <div className="empty">
              <p>Aucun modèle de facture récurrente pour l’instant.</p>
              <p>
                <Link href="/recurring/new">Créer un modèle</Link>, ou partez d’une facture existante : « Créer un modèle récurrent » sur sa page.
              </p>
            </div>
          )
        ) : (
          <table className="table" aria-label="Modèles de factures récurrentes">
            <thead>
              <tr>
                <th scope="col">Modèle</th>
                <th scope="col">Client</th>
                <th scope="col">Statut</th>
                <th scope="col">Fréquence</th>
                <th scope="col">Prochaine facture</th>
                <th scope="col" className="num">
                  Montant TTC
                </th>
              </tr>
            </thead>
            <tbody>
              {page.data.map((t) => {
                const c = names.get(t.contact_id);
                return (
                  <tr key={t.id}>
                    <td>
                      <Link href={`/recurring/${t.id}`}>{t.title ?? t.items[0]?.description ?? 'Modèle sans objet'}</Link>
                      {t.last_error && (
                        <div>
                          <span className="chip chip-red" title={t.last_error}>
                            échec{t.last_error_at ? ` le ${formatInstant(t.last_error_at, { time: null })}` : ''}
                          </span>
                        </div>
                      )}
                    </td>
                    <td>
                      {c?.name ? (
                        <Link href={listHref('/recurring', filters, { contact_id: t.contact_id })} title="Voir les modèles de ce client">
                          {c.name}
                        </Link>
                      ) : (
                        <span className="muted">Contact effacé</span>
                      )}
                    </td>
                    <td>
                      <span className={`chip ${TEMPLATE_STATUS_CHIPS[t.status]}`}>{TEMPLATE_STATUS_LABELS[t.status]}</span>
                    </td>
                    <td>{FREQUENCY_LABELS[t.frequency]}</td>
                    <td>{t.status === 'paused' ? <span className="muted">—</span> : formatDay(t.next_generation_date)}</td>
                    <td className="num">{formatMoney(t.total_ttc)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </section>

      <Pager base="/recurring" filters={filters} nextCursor={page.meta.next_cursor} />
    </>
  );
}
