import type { Metadata } from 'next';
import Link from 'next/link';
import { type Column, DataTable, EmptyState, FilterBar, FilterChips, FilterSelect, LinkButton, loadListPage, Pager, readListFilters, readListSort, StatusChip } from '@/components/ui';
import { CONTACT_SORTS, ContactListQuery, LEAD_STATUSES, listContacts } from '@/lib/domain/contacts';
import { requireStaffOrg } from '@/lib/platform/next';
import { contactState, LEAD_STATUS_CHIPS, LEAD_STATUS_LABELS, TYPE_LABELS } from './labels';

export const metadata: Metadata = { title: 'Contacts' };

const FILTERS = ['q', 'type', 'lead_status', 'tag', 'include_deleted', 'cursor'] as const;
const SORTS = Object.keys(CONTACT_SORTS) as Array<keyof typeof CONTACT_SORTS>;

type ContactRow = Awaited<ReturnType<typeof listContacts>>['data'][number];

const dash = <span className="muted">—</span>;

/** The list's columns; "État" only when deleted and merged contacts are shown. */
const columns = (showState: boolean): Array<Column<ContactRow> | false> => [
  {
    key: 'name',
    header: 'Nom',
    sort: true,
    cell: (c) => (
      <>
        <Link href={`/contacts/${c.id}`}>{c.display_name ?? 'Contact effacé'}</Link>
        {c.company && (c.first_name || c.last_name) && <div className="muted">{[c.first_name, c.last_name].filter(Boolean).join(' ')}</div>}
      </>
    ),
  },
  { key: 'type', header: 'Type', cell: (c) => TYPE_LABELS[c.type] },
  { key: 'email', header: 'E-mail', sort: true, cell: (c) => c.email ?? dash },
  { key: 'phone', header: 'Téléphone', cell: (c) => c.phone ?? dash },
  { key: 'city', header: 'Ville', sort: true, cell: (c) => [c.postal_code, c.city].filter(Boolean).join(' ') || dash },
  { key: 'lead_status', header: 'Statut', cell: (c) => c.lead_status && <StatusChip tone={LEAD_STATUS_CHIPS[c.lead_status]}>{LEAD_STATUS_LABELS[c.lead_status]}</StatusChip> },
  {
    key: 'tags',
    header: 'Étiquettes',
    cell: (c) =>
      c.tags.map((t) => (
        <StatusChip key={t} tone="chip-grey">
          {t}
        </StatusChip>
      )),
  },
  showState && {
    key: 'state',
    header: 'État',
    cell: (c) => {
      const state = contactState(c);
      return state ? <StatusChip tone={state.chip}>{state.label}</StatusChip> : <StatusChip tone="chip-green">actif</StatusChip>;
    },
  },
];

export default async function ContactsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const staff = await requireStaffOrg();
  const raw = await searchParams;
  const filters = readListFilters(raw, FILTERS);
  const sort = readListSort(raw, SORTS);
  const { page, problem } = await loadListPage(ContactListQuery, filters, (query) => listContacts(staff.db, staff.orgId, query, sort));
  // The links of the list keep its sort (the filters' schema ignores these two keys).
  const state = sort ? { ...filters, sort: sort.key, dir: sort.dir } : filters;
  const active = [filters.q, filters.type, filters.lead_status, filters.tag, filters.include_deleted].filter(Boolean).length;
  const filtered = active > 0;
  const showState = filters.include_deleted === 'true';

  return (
    <>
      <div className="page-header">
        <h1>Contacts</h1>
        <div className="actions">
          <LinkButton href="/contacts/duplicates">
            Doublons
          </LinkButton>
          <LinkButton href="/contacts/import">
            Importer
          </LinkButton>
          <LinkButton aria-keyshortcuts="N" variant="primary" href="/contacts/new">
            Nouveau contact
          </LinkButton>
        </div>
      </div>

      <FilterBar
        base="/contacts"
        filtered={filtered}
        keep={{ sort: sort?.key, dir: sort?.dir }}
        active={active}
        chips={
          <FilterChips
          base="/contacts"
          filters={state}
          name="lead_status"
          values={LEAD_STATUSES}
          labels={LEAD_STATUS_LABELS}
          chips={LEAD_STATUS_CHIPS}
          label="Filtrer par statut"
        />
        }
      >
        <input type="search" name="q" aria-label="Rechercher" aria-keyshortcuts="/" placeholder="Nom, société ou e-mail" defaultValue={filters.q} />
        <FilterSelect name="type" label="Type" allLabel="Tous les types" options={TYPE_LABELS} value={filters.type} />
        <FilterSelect name="lead_status" label="Statut commercial" allLabel="Tous les statuts" options={LEAD_STATUS_LABELS} value={filters.lead_status} />
        <input type="text" name="tag" aria-label="Étiquette" placeholder="Étiquette" defaultValue={filters.tag} />
        <label>
          <input type="checkbox" name="include_deleted" value="true" defaultChecked={showState} /> Supprimés et fusionnés aussi
        </label>
      </FilterBar>


      {problem && <div className="notice notice-warning">{problem}</div>}

      <section className="card">
        {page.data.length === 0 ? (
          <EmptyState
            noMatch={{ when: filtered || Boolean(filters.cursor), message: 'Aucun contact ne correspond à ces critères.', href: '/contacts', label: 'Voir tous les contacts' }}
            action={
              <>
                <Link href="/contacts/new">Créer un contact</Link> ou <Link href="/contacts/import">importer un fichier CSV</Link>.
              </>
            }
          >
            Aucun contact pour l’instant.
          </EmptyState>
        ) : (
          <DataTable label="Contacts" cards columns={columns(showState)} rows={page.data} rowKey={(c) => c.id} sort={{ base: '/contacts', filters: state, current: sort }} />
        )}
      </section>

      <Pager base="/contacts" filters={state} nextCursor={page.meta.next_cursor} />
    </>
  );
}
