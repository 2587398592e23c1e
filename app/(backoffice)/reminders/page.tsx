import type { Metadata } from 'next';
import Link from 'next/link';
import { addReminderAction } from '@/components/reminders/reminder-ladder-actions';
import { contactsOfDocuments } from '@/lib/domain/documents';
import { formatDay, formatInstant, formatMoney, pluralWord } from '@/lib/platform/format';
import { requireStaffOrg } from '@/lib/platform/next';
import { reminderTracking } from '@/lib/domain/reminders';
import { RemindNow } from './remind-now';
import { DataTable, EmptyState, LinkButton, StatusChip } from '@/components/ui';

export const metadata: Metadata = { title: 'À relancer' };


/**
 * "À relancer": GET /v1/invoices/reminders/tracking for the staff's org — the unpaid invoices that have reminders,
 * most urgent first (ladder exhausted, then most overdue, then soonest next reminder), 20 at most.
 */
export default async function RemindersPage() {
  const staff = await requireStaffOrg();
  const { items } = await reminderTracking(staff.db, staff.orgId);
  const contactOf = await contactsOfDocuments(
    staff.db,
    staff.orgId,
    items.map((r) => r.document_id),
  );
  return (
    <>
      <div className="page-header">
        <h1>À relancer</h1>
      </div>
      <p className="muted">
        Les factures impayées qui ont des relances, les plus urgentes d’abord : celles dont toutes les relances sont passées sans paiement (à
        reprendre en main : appel, mise en demeure), puis les plus en retard, puis celles dont la prochaine relance est la plus proche. Les
        relances sont programmées à l’envoi d’un document ; leur calendrier se règle dans{' '}
        <Link href="/settings/invoicing">Réglages → Facturation</Link>.
      </p>
      <section className="card" aria-label="Factures à relancer">
        {items.length === 0 ? (
          <EmptyState>Rien à relancer : aucune facture impayée n’a de relance en cours ou épuisée.</EmptyState>
        ) : (
          <DataTable
            label="Factures à relancer"
            columns={[
              { key: 'facture', header: 'Facture', cell: (row) => <Link href={`/documents/${row.document_id}`}>{row.number ?? 'Sans numéro'}</Link> },
              {
                key: 'client',
                header: 'Client',
                cell: (row) => row.contact_name ? <Link href={`/contacts/${contactOf.get(row.document_id)}`}>{row.contact_name}</Link> : <span className="muted">Contact supprimé</span>,
              },
              { key: 'echeance', header: 'Échéance', cell: (row) => formatDay(row.due_date) || '—' },
              {
                key: 'retard',
                header: 'Retard',
                num: true,
                cell: (row) => row.days_overdue > 0 ? <StatusChip tone="chip-red">{row.days_overdue} j</StatusChip> : <span className="muted">—</span>,
              },
              { key: 'total_ttc', header: 'Total TTC', money: (row) => row.total_ttc_cents },
              { key: 'reste_du', header: 'Reste dû', num: true, cell: (row) => <strong>{formatMoney(row.balance_cents)}</strong> },
              {
                key: 'relances',
                header: 'Relances',
                cell: (row) => (
                  <>
                    {row.sent_count} {pluralWord(row.sent_count, 'envoyée')}
                    {row.pending_count > 0 && `, ${row.pending_count} ${pluralWord(row.pending_count, 'programmée')}`}
                  </>
                ),
              },
              {
                key: 'prochaine_relance',
                header: 'Prochaine relance',
                cell: (row) => row.exhausted ? <StatusChip tone="chip-amber">relances épuisées</StatusChip> : formatInstant(row.next_at) || '—',
              },
              {
                key: 'agir',
                header: 'Agir',
                className: 'row-actions',
                cell: (row) => (
                  <>
                    {/* Bound here, on the server: a form bound in the browser would not submit without JavaScript. */}
                    <RemindNow action={addReminderAction.bind(null, row.document_id)} number={row.number ?? ''} />
                    <LinkButton small href={`/documents/${row.document_id}#paiements`}>
                      Encaisser
                    </LinkButton>
                  </>
                ),
              },
            ]}
            rows={items}
            rowKey={(row) => row.document_id}
            rowProps={(row) => ({ 'data-testid': `tracking-${row.document_id}` })}
          />
        )}
      </section>
    </>
  );
}
