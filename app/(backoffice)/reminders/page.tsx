import type { Metadata } from 'next';
import Link from 'next/link';
import { addReminderAction, scheduleLadderAction } from '@/components/reminders/reminder-ladder-actions';
import { contactsOfDocuments, summarizeDocuments } from '@/lib/domain/documents';
import { formatDay, formatInstant, formatMoney, plural, pluralWord } from '@/lib/platform/format';
import { requireStaffOrg } from '@/lib/platform/next';
import { reminderTracking, type TrackingRow } from '@/lib/domain/reminders';
import { RemindNow } from './remind-now';
import { ScheduleLadder } from './schedule-ladder';
import { DataTable, EmptyState, LinkButton, StatusChip } from '@/components/ui';

export const metadata: Metadata = { title: 'À relancer' };

/** An overdue invoice that nobody chases: no reminder sent, none pending, no ladder come and gone. */
const unscheduled = (row: TrackingRow) => row.sent_count === 0 && row.pending_count === 0 && !row.exhausted;

/**
 * "À relancer": GET /v1/invoices/reminders/tracking for the staff's org — every overdue unpaid invoice (with or without
 * reminders) and the unpaid ones whose reminders are under way, most urgent first (ladder exhausted, then overdue
 * without any reminder, then most overdue, then soonest next reminder), 20 at most; beyond, a link to the documents
 * list filtered on overdue (the same definition, lib/domain/documents' overdueSql), which lists them all.
 */
export default async function RemindersPage() {
  const staff = await requireStaffOrg();
  const [{ items }, overdue] = await Promise.all([
    reminderTracking(staff.db, staff.orgId),
    summarizeDocuments(staff.db, staff.orgId, { overdue: true }).then((s) => s.invoices.count),
  ]);
  const overdueShown = items.filter((r) => r.days_overdue > 0).length;
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
        Toutes les factures impayées en retard, qu’elles aient des relances ou non, et celles dont les relances sont en cours, les plus
        urgentes d’abord : celles dont toutes les relances sont passées sans paiement (à reprendre en main : appel, mise en demeure), puis
        celles en retard sans aucune relance programmée, puis les plus en retard, puis celles dont la prochaine relance est la plus proche.
        Les relances sont programmées à l’envoi d’un document, ou ici d’un clic (« Programmer les relances ») ; leur calendrier se règle
        dans <Link href="/settings/invoicing">Réglages → Facturation</Link>.
      </p>
      {overdue > overdueShown && (
        <p className="notice" data-testid="overdue-beyond">
          {plural(overdue, 'facture en retard', 'factures en retard')} au total, {overdueShown} ci-dessous.{' '}
          <Link href="/documents?overdue=true">Voir toutes les factures en retard</Link>
        </p>
      )}
      <section className="card" aria-label="Factures à relancer">
        {items.length === 0 ? (
          <EmptyState>Rien à relancer : aucune facture impayée n’est en retard ni n’a de relance en cours.</EmptyState>
        ) : (
          <DataTable
            label="Factures à relancer"
            cards
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
                cell: (row) =>
                  unscheduled(row) ? (
                    <span className="muted">Aucune relance programmée</span>
                  ) : (
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
                    <ScheduleLadder action={scheduleLadderAction.bind(null, row.document_id)} number={row.number ?? ''} unscheduled={unscheduled(row)} />
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
