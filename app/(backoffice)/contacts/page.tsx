import type { Metadata } from 'next';
import Link from 'next/link';
import { FilterChips, Pager, SortHeader } from '@/components/list-page';
import { loadListPage, readListFilters, readListSort } from '@/components/list-query';
import { CONTACT_SORTS, listContacts } from '@/lib/domain/contacts/contacts';
import { ContactListQuery, LEAD_STATUSES } from '@/lib/domain/contacts/schemas';
import { requireStaffOrg } from '@/lib/platform/http/staff';
import { contactState, LEAD_STATUS_CHIPS, LEAD_STATUS_LABELS, TYPE_LABELS } from './labels';

export const metadata: Metadata = { title: 'Contacts' };

const FILTERS = ['q', 'type', 'lead_status', 'tag', 'include_deleted', 'cursor'] as const;
const SORTS = Object.keys(CONTACT_SORTS) as Array<keyof typeof CONTACT_SORTS>;

export default async function ContactsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const staff = await requireStaffOrg();
  const raw = await searchParams;
  const filters = readListFilters(raw, FILTERS);
  const sort = readListSort(raw, SORTS);
  const { page, problem } = await loadListPage(ContactListQuery, filters, (query) => listContacts(staff.db, staff.orgId, query, sort));
  // The links of the list keep its sort (the filters' schema ignores these two keys).
  const state = sort ? { ...filters, sort: sort.key, dir: sort.dir } : filters;
  const filtered = Boolean(filters.q || filters.type || filters.lead_status || filters.tag || filters.include_deleted);
  const showState = filters.include_deleted === 'true';

  return (
    <>
      <div className="page-header">
        <h1>Contacts</h1>
        <div className="actions">
          <Link className="btn" href="/contacts/duplicates">
            Doublons
          </Link>
          <Link className="btn" href="/contacts/import">
            Importer
          </Link>
          <Link aria-keyshortcuts="N" className="btn btn-primary" href="/contacts/new">
            Nouveau contact
          </Link>
        </div>
      </div>

      <search>
        <form className="toolbar" action="/contacts">
          <input type="search" name="q" aria-label="Rechercher" aria-keyshortcuts="/" placeholder="Nom, société ou e-mail" defaultValue={filters.q} />
          <select name="type" aria-label="Type" defaultValue={filters.type ?? ''}>
            <option value="">Tous les types</option>
            {Object.entries(TYPE_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
          <select name="lead_status" aria-label="Statut commercial" defaultValue={filters.lead_status ?? ''}>
            <option value="">Tous les statuts</option>
            {LEAD_STATUSES.map((s) => (
              <option key={s} value={s}>
                {LEAD_STATUS_LABELS[s]}
              </option>
            ))}
          </select>
          <input type="text" name="tag" aria-label="Étiquette" placeholder="Étiquette" defaultValue={filters.tag} />
          {sort && <input type="hidden" name="sort" value={sort.key} />}
          {sort && <input type="hidden" name="dir" value={sort.dir} />}
          <label>
            <input type="checkbox" name="include_deleted" value="true" defaultChecked={showState} /> Supprimés et fusionnés aussi
          </label>
          <button className="btn" type="submit">
            Filtrer
          </button>
          {filtered && (
            <Link className="btn btn-ghost" href="/contacts">
              Effacer les filtres
            </Link>
          )}
        </form>
      </search>

      <FilterChips
        base="/contacts"
        filters={state}
        name="lead_status"
        values={LEAD_STATUSES}
        labels={LEAD_STATUS_LABELS}
        chips={LEAD_STATUS_CHIPS}
        label="Filtrer par statut"
      />

      {problem && <div className="notice notice-warning">{problem}</div>}

      <section className="card">
        {page.data.length === 0 ? (
          filtered || filters.cursor ? (
            <p className="empty">
              Aucun contact ne correspond à ces critères. <Link href="/contacts">Voir tous les contacts</Link>
            </p>
          ) : (
            <div className="empty">
              <p>Aucun contact pour l’instant.</p>
              <p>
                <Link href="/contacts/new">Créer un contact</Link> ou <Link href="/contacts/import">importer un fichier CSV</Link>.
              </p>
            </div>
          )
        ) : (
          <table className="table">
            <thead>
              <tr>
                <SortHeader base="/contacts" filters={state} sort={sort} name="name" label="Nom" />
                <th scope="col">Type</th>
                <SortHeader base="/contacts" filters={state} sort={sort} name="email" label="E-mail" />
                <th scope="col">Téléphone</th>
                <SortHeader base="/contacts" filters={state} sort={sort} name="city" label="Ville" />
                <th>Statut</th>
                <th>Étiquettes</th>
                {showState && <th>État</th>}
              </tr>
            </thead>
            <tbody>
              {page.data.map((c) => {
                const state = contactState(c);
                return (
                  <tr key={c.id}>
                    <td>
                      <Link href={`/contacts/${c.id}`}>{c.display_name ?? 'Contact effacé'}</Link>
                      {c.company && (c.first_name || c.last_name) && (
                        <div className="muted">{[c.first_name, c.last_name].filter(Boolean).join(' ')}</div>
                      )}
                    </td>
                    <td>{TYPE_LABELS[c.type]}</td>
                    <td>{c.email ?? <span className="muted">—</span>}</td>
                    <td>{c.phone ?? <span className="muted">—</span>}</td>
                    <td>{[c.postal_code, c.city].filter(Boolean).join(' ') || <span className="muted">—</span>}</td>
                    <td>{c.lead_status && <span className={`chip ${LEAD_STATUS_CHIPS[c.lead_status]}`}>{LEAD_STATUS_LABELS[c.lead_status]}</span>}</td>
                    <td>
                      {c.tags.map((t) => (
                        <span key={t} className="chip chip-grey">
                          {t}
                        </span>
                      ))}
                    </td>
                    {showState && <td>{state ? <span className={`chip ${state.chip}`}>{state.label}</span> : <span className="chip chip-green">actif</span>}</td>}
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </section>

      <Pager base="/contacts" filters={state} nextCursor={page.meta.next_cursor} />
    </>
  );
}
