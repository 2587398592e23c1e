import type { Metadata } from 'next';
import Link from 'next/link';
import { FilterChips, Pager } from '@/components/list-page';
import { loadListPage, readListFilters } from '@/components/list-query';
import { INBOUND_PARSE_STATUSES, type InboundParseStatus } from '@/db/schema';
import { InboundListQuery, inboundAnswers, listInboundInvoices } from '@/lib/domain/einvoicing/inbound';
import { formatDay, formatInstant, formatMoney } from '@/lib/platform/format';
import { requireStaffOrg } from '@/lib/platform/http/staff';
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
  const filtered = Boolean(filters.parse_status || filters.sender_siren || filters.received_from || filters.received_to || filters.cursor);

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

      <FilterChips
        base={BASE}
        filters={filters}
        name="parse_status"
        label="Lecture"
        values={INBOUND_PARSE_STATUSES}
        labels={Object.fromEntries(INBOUND_PARSE_STATUSES.map((s) => [s, PARSE_STATUS_LABELS[s].label])) as Record<InboundParseStatus, string>}
        chips={Object.fromEntries(INBOUND_PARSE_STATUSES.map((s) => [s, PARSE_STATUS_LABELS[s].chip])) as Record<InboundParseStatus, string>}
      />
      <search>
        <form className="toolbar" action={BASE}>
          {filters.parse_status && <input type="hidden" name="parse_status" value={filters.parse_status} />}
          <label>
            SIREN du fournisseur{' '}
            <input name="sender_siren" inputMode="numeric" size={11} defaultValue={filters.sender_siren} />
          </label>
          <label>
            Reçue du <input type="date" name="received_from" defaultValue={filters.received_from} />
          </label>
          <label>
            au <input type="date" name="received_to" defaultValue={filters.received_to} />
          </label>
          <button className="btn" type="submit">
            Filtrer
          </button>
          {filtered && (
            <Link className="btn btn-ghost" href={BASE}>
              Effacer
            </Link>
          )}
        </form>
      </search>

      {problem && <div className="notice notice-warning">{problem}</div>}

      <section className="card">
        {page.data.length === 0 ? (
          <p className="empty">
            {filtered ? (
              <>
                Aucune facture reçue ne correspond. <Link href={BASE}>Voir toutes les factures reçues</Link>
              </>
            ) : (
              'Aucune facture reçue pour l’instant. Elles arrivent ici dès que votre inscription à l’annuaire est active (Réglages → Facturation électronique).'
            )}
          </p>
        ) : (
          <table className="table" aria-label="Factures reçues">
            <thead>
              <tr>
                <th scope="col">Reçue le</th>
                <th scope="col">Fournisseur</th>
                <th scope="col">Numéro</th>
                <th scope="col">Échéance</th>
                <th scope="col" className="num">
                  Total TTC
                </th>
                <th scope="col">Lecture</th>
                <th scope="col">Réponse</th>
              </tr>
            </thead>
            <tbody>
              {page.data.map((i) => {
                const status = PARSE_STATUS_LABELS[i.parse_status];
                const answer = answerLabel(answers.get(i.id) ?? null);
                return (
                  <tr key={i.id}>
                    <td>{formatInstant(i.received_at ?? i.created_at)}</td>
                    <td>
                      {i.seller_name ?? <span className="muted">Inconnu</span>}
                      {i.sender_siren && <div className="muted">SIREN {i.sender_siren}</div>}
                    </td>
                    <td>
                      <Link href={`${BASE}/${i.id}`}>{i.invoice_number ?? 'Voir le fichier reçu'}</Link>
                    </td>
                    <td>{i.due_date ? formatDay(i.due_date) : <span className="muted">—</span>}</td>
                    <td className="num">{i.total_ttc === null ? <span className="muted">—</span> : i.currency === 'EUR' ? formatMoney(i.total_ttc) : `${(i.total_ttc / 100).toFixed(2)} ${i.currency}`}</td>
                    <td>
                      <span className={`chip ${status.chip}`}>{status.label}</span>
                    </td>
                    <td>
                      <span className={`chip ${answer.chip}`}>{answer.label}</span>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </section>

      <Pager base={BASE} filters={filters} nextCursor={page.meta.next_cursor} />
    </>
  );
}

