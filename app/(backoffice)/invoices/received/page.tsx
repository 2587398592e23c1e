import type { Metadata } from 'next';
import Link from 'next/link';
import { type Column, DataTable, EmptyState, FilterBar, FilterChips, loadListPage, Pager, readListFilters, StatusChip } from '@/components/ui';
import { INBOUND_PARSE_STATUSES, type InboundParseStatus } from '@/db/schema';
import { InboundListQuery, inboundAnswers, listInboundInvoices } from '@/lib/domain/einvoicing';
import { formatDay, formatInstant, formatMoneyIn } from '@/lib/platform/format';
import { requireStaffOrg } from '@/lib/platform/next';
import { fetchNowAction } from './actions';
import { FetchNow } from './fetch-now';
import { answerLabel, PARSE_STATUS_LABELS } from './labels';

export const metadata: Metadata = { title: 'Factures reçues' };

const BASE = '/invoices/received';

/** The inbox of invoices the org's PA delivered: newest first, filtered like GET /v1/invoices/inbound. */
export default async function ReceivedInvoicesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const staff = await requireStaffOrg();
  const raw = await searchParams;
  const filters = readListFilters(raw, ['parse_status', 'sender_siren', 'received_from', 'received_to', 'cursor']);
  const { page, problem } = await loadListPage(InboundListQuery, filters, (query) => listInboundInvoices(staff.db, staff.orgId, query));
  const answers = await inboundAnswers(staff.db, staff.orgId, page.data.map((i) => i.id));
  const columns: Array<Column<(typeof page.data)[number]>> = [
    { key: 'received_at', header: 'Reçue le', cell: (i) => formatInstant(i.received_at ?? i.created_at) },
    {
      key: 'seller',
      header: 'Fournisseur',
      cell: (i) => (
        <>
          {i.seller_name ?? <span className="muted">Inconnu</span>}
          {i.sender_siren && <div className="muted">SIREN {i.sender_siren}</div>}
        </>
      ),
    },
    { key: 'number', header: 'Numéro', cell: (i) => <Link href={`${BASE}/${i.id}`}>{i.invoice_number ?? 'Voir le fichier reçu'}</Link> },
    { key: 'due_date', header: 'Échéance', cell: (i) => (i.due_date ? formatDay(i.due_date) : <span className="muted">—</span>) },
    { key: 'total_ttc', header: 'Total TTC', num: true, cell: (i) => (i.total_ttc === null ? <span className="muted">—</span> : formatMoneyIn(i.total_ttc, i.currency)) },
    {
      key: 'parse_status',
      header: 'Lecture',
      cell: (i) => {
        const status = PARSE_STATUS_LABELS[i.parse_status];
        return <StatusChip tone={status.chip}>{status.label}</StatusChip>;
      },
    },
    {
      key: 'answer',
      header: 'Réponse',
      cell: (i) => {
        const answer = answerLabel(answers.get(i.id) ?? null);
        return <StatusChip tone={answer.chip}>{answer.label}</StatusChip>;
      },
    },
  ];
  const active = [filters.parse_status, filters.sender_siren, filters.received_from, filters.received_to].filter(Boolean).length;
  const filtered = active > 0 || Boolean(filters.cursor);

  return (
    <>
      <div className="page-header">
        <h1>Factures reçues</h1>
        <div className="actions">
          <FetchNow action={fetchNowAction} />
        </div>
      </div>
      <p className="muted">
        Les factures électroniques que vos fournisseurs vous adressent par votre plateforme agréée, relevées toutes les cinq minutes. Approuvez,
        refusez ou contestez chacune : votre réponse est transmise à la plateforme.
      </p>

      <FilterBar
        base={BASE}
        filtered={filtered}
        keep={{ parse_status: filters.parse_status }}
        resetLabel="Effacer"
        active={active}
        chips={
          <FilterChips
          base={BASE}
          filters={filters}
          name="parse_status"
          label="Lecture"
          values={INBOUND_PARSE_STATUSES}
          labels={Object.fromEntries(INBOUND_PARSE_STATUSES.map((s) => [s, PARSE_STATUS_LABELS[s].label])) as Record<InboundParseStatus, string>}
          chips={Object.fromEntries(INBOUND_PARSE_STATUSES.map((s) => [s, PARSE_STATUS_LABELS[s].chip])) as Record<InboundParseStatus, string>}
        />
        }
      >
        <label>
          SIREN du fournisseur <input name="sender_siren" inputMode="numeric" size={11} defaultValue={filters.sender_siren} />
        </label>
        <label>
          Reçue du <input type="date" name="received_from" defaultValue={filters.received_from} />
        </label>
        <label>
          au <input type="date" name="received_to" defaultValue={filters.received_to} />
        </label>
      </FilterBar>

      {problem && <div className="notice notice-warning">{problem}</div>}

      <section className="card">
        {page.data.length === 0 ? (
          <EmptyState noMatch={{ when: filtered, message: 'Aucune facture reçue ne correspond.', href: BASE, label: 'Voir toutes les factures reçues' }}>
            Aucune facture reçue pour l’instant. Elles arrivent ici dès que votre inscription à l’annuaire est active (Réglages → Facturation
            électronique).
          </EmptyState>
        ) : (
          <DataTable label="Factures reçues" cards columns={columns} rows={page.data} rowKey={(i) => i.id} />
        )}
      </section>

      <Pager base={BASE} filters={filters} nextCursor={page.meta.next_cursor} />
    </>
  );
}

