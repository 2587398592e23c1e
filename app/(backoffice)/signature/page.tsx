import type { Metadata } from 'next';
import Link from 'next/link';
import { ChipLink, type Column, DataTable, EmptyState, FilterBar, FilterChips, LinkButton, listHref, loadListPage, Pager, readListFilters, StatusChip } from '@/components/ui';
import { formatInstant } from '@/lib/platform/format';
import { requireStaffOrg } from '@/lib/platform/next';
import { EnvelopeListQuery, listEnvelopes } from '@/lib/domain/signature';
import { ContactFilter } from '../documents/contact-filter';
import { ENVELOPE_LIST_FILTERS, ENVELOPE_STATUS_CHIPS, ENVELOPE_STATUS_LABELS, ENVELOPE_STATUS_ORDER, envelopeTitle, SOURCE_LABELS } from './labels';
import { contactChoice } from './load';
import { SignatureTabs } from './tabs';

export const metadata: Metadata = { title: 'Signature' };

const FILTERS = ENVELOPE_LIST_FILTERS;

/** The envelopes (GET /v1/signature/envelopes for the staff's org): newest first, every filter of the spec. */
export default async function SignaturePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const staff = await requireStaffOrg();
  const raw = await searchParams;
  const filters = readListFilters(raw, FILTERS);
  const { page, query, problem } = await loadListPage(EnvelopeListQuery, filters, (q) => listEnvelopes(staff.db, staff.orgId, q));
  const contact = query?.contact_id ? ((await contactChoice(staff, query.contact_id)) ?? { id: query.contact_id, name: 'Contact inconnu' }) : null;
  const active = FILTERS.filter((k) => k !== 'cursor' && filters[k]).length;
  const filtered = active > 0;
  const columns: Array<Column<(typeof page.data)[number]>> = [
    { key: 'title', header: 'Objet', cell: (e) => <Link href={`/signature/${e.id}`}>{envelopeTitle(e)}</Link> },
    { key: 'status', header: 'Statut', cell: (e) => <StatusChip tone={ENVELOPE_STATUS_CHIPS[e.status]}>{ENVELOPE_STATUS_LABELS[e.status]}</StatusChip> },
    { key: 'source', header: 'Document', cell: (e) => SOURCE_LABELS[e.source_kind] },
    {
      key: 'labels',
      header: 'Étiquettes',
      cell: (e) =>
        e.labels.length === 0 ? (
          <span className="muted">—</span>
        ) : (
          e.labels.map((l) => (
            <ChipLink key={l} href={listHref('/signature', filters, { label: l })} title="Voir les enveloppes de cette étiquette">
              {l}
            </ChipLink>
          ))
        ),
    },
    { key: 'created_at', header: 'Créée le', cell: (e) => formatInstant(e.created_at, { time: 'short' }) },
  ];

  return (
    <>
      <div className="page-header">
        <h1>Signature électronique</h1>
        <div className="actions">
          <LinkButton aria-keyshortcuts="N" variant="primary" href="/signature/new">
            Nouvelle enveloppe
          </LinkButton>
        </div>
      </div>
      <SignatureTabs current="envelopes" />
      <p className="muted">
        Une enveloppe porte un document (un PDF importé, un devis ou une facture finalisés) et ses signataires, qui signent en ligne avec un code reçu
        par e-mail ou SMS. Chaque étape est inscrite dans une chaîne de preuves vérifiable.
      </p>

      {raw.deleted && (
        <div className="notice notice-success" role="status">
          Brouillon supprimé.
        </div>
      )}

      <FilterBar
        base="/signature"
        filtered={filtered}
        keep={{ status: filters.status }}
        active={active}
        chips={
          <FilterChips
          base="/signature"
          filters={filters}
          name="status"
          values={ENVELOPE_STATUS_ORDER}
          labels={ENVELOPE_STATUS_LABELS}
          chips={ENVELOPE_STATUS_CHIPS}
          label="Filtrer par statut"
        />
        }
      >
        <input type="search" name="q" aria-label="Rechercher" aria-keyshortcuts="/" placeholder="Objet ou e-mail d’un signataire" defaultValue={filters.q} />
        <input type="text" name="label" aria-label="Étiquette" placeholder="Étiquette" defaultValue={filters.label} />
        <ContactFilter contact={contact} />
      </FilterBar>


      {problem && <div className="notice notice-warning">{problem}</div>}

      <section className="card">
        {page.data.length === 0 ? (
          <EmptyState
            noMatch={{ when: filtered || Boolean(filters.cursor), message: 'Aucune enveloppe ne correspond à ces critères.', href: '/signature', label: 'Voir toutes les enveloppes' }}
            action={
              <>
                <Link href="/signature/new">Créer une enveloppe</Link> à partir d’un PDF, d’un devis ou d’une facture.
              </>
            }
          >
            Aucune enveloppe pour l’instant.
          </EmptyState>
        ) : (
          <DataTable label="Enveloppes de signature" cards columns={columns} rows={page.data} rowKey={(e) => e.id} />
        )}
      </section>

      <Pager base="/signature" filters={filters} nextCursor={page.meta.next_cursor} />
    </>
  );
}
