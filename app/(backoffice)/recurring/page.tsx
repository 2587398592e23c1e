import type { Metadata } from 'next';
import Link from 'next/link';
import { type Column, DataTable, EmptyState, FilterBar, FilterChips, LinkButton, listHref, loadListPage, Pager, readListFilters, StatusChip } from '@/components/ui';
import { getContact } from '@/lib/domain/contacts';
import { ApiError } from '@/lib/platform/errors';
import { formatDay, formatInstant } from '@/lib/platform/format';
import { requireStaffOrg } from '@/lib/platform/next';
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
  const active = FILTERS.filter((k) => k !== 'cursor' && filters[k]).length;
  const filtered = active > 0;
  const columns: Array<Column<(typeof page.data)[number]>> = [
    {
      key: 'title',
      header: 'Modèle',
      cell: (t) => (
        <>
          <Link href={`/recurring/${t.id}`}>{t.title ?? t.items[0]?.description ?? 'Modèle sans objet'}</Link>
          {t.last_error && (
            <div>
              <StatusChip tone="chip-red" title={t.last_error}>
                échec{t.last_error_at ? ` le ${formatInstant(t.last_error_at, { time: null })}` : ''}
              </StatusChip>
            </div>
          )}
        </>
      ),
    },
    {
      key: 'client',
      header: 'Client',
      cell: (t) => {
        const c = names.get(t.contact_id);
        return c?.name ? (
          <Link href={listHref('/recurring', filters, { contact_id: t.contact_id })} title="Voir les modèles de ce client">
            {c.name}
          </Link>
        ) : (
          <span className="muted">Contact effacé</span>
        );
      },
    },
    { key: 'status', header: 'Statut', cell: (t) => <StatusChip tone={TEMPLATE_STATUS_CHIPS[t.status]}>{TEMPLATE_STATUS_LABELS[t.status]}</StatusChip> },
    { key: 'frequency', header: 'Fréquence', cell: (t) => FREQUENCY_LABELS[t.frequency] },
    { key: 'next', header: 'Prochaine facture', cell: (t) => (t.status === 'paused' ? <span className="muted">—</span> : formatDay(t.next_generation_date)) },
    { key: 'total_ttc', header: 'Montant TTC', money: (t) => t.total_ttc },
  ];

  return (
    <>
      <div className="page-header">
        <h1>Facturation récurrente</h1>
        <div className="actions">
          <LinkButton aria-keyshortcuts="N" variant="primary" href="/recurring/new">
            Nouveau modèle
          </LinkButton>
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

      <FilterBar
        base="/recurring"
        filtered={filtered}
        keep={{ status: filters.status }}
        submitLabel={null}
        active={active}
        chips={
          <FilterChips
          base="/recurring"
          filters={filters}
          name="status"
          values={TEMPLATE_STATUSES}
          labels={TEMPLATE_STATUS_LABELS}
          chips={TEMPLATE_STATUS_CHIPS}
          label="Filtrer par statut"
        />
        }
      >
        <ContactFilter contact={contact} />
      </FilterBar>


      {problem && <div className="notice notice-warning">{problem}</div>}

      <section className="card">
        {page.data.length === 0 ? (
          <EmptyState
            noMatch={{ when: filtered || Boolean(filters.cursor), message: 'Aucun modèle ne correspond à ces critères.', href: '/recurring', label: 'Voir tous les modèles' }}
            action={
              <>
                <Link href="/recurring/new">Créer un modèle</Link>, ou partez d’une facture existante : « Créer un modèle récurrent » sur sa page.
              </>
            }
          >
            Aucun modèle de facture récurrente pour l’instant.
          </EmptyState>
        ) : (
          <DataTable label="Modèles de factures récurrentes" cards columns={columns} rows={page.data} rowKey={(t) => t.id} />
        )}
      </section>

      <Pager base="/recurring" filters={filters} nextCursor={page.meta.next_cursor} />
    </>
  );
}
