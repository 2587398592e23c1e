import type { Metadata } from 'next';
import Link from 'next/link';
import { addReminderAction } from '@/components/reminder-ladder-actions';
import { contactsOfDocuments } from '@/lib/domain/documents/list-documents';
import { formatDay, formatInstant, formatMoney, pluralWord } from '@/lib/platform/format';
import { requireStaffOrg } from '@/lib/platform/http/staff';
import { reminderTracking } from '@/lib/domain/reminders/tracking';
import { RemindNow } from './remind-now';

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
          <p className="empty">Rien à relancer : aucune facture impayée n’a de relance en cours ou épuisée.</p>
        ) : (
          <table className="table">
            <thead>
              <tr>
                <th>Facture</th>
                <th>Client</th>
                <th>Échéance</th>
                <th className="num">Retard</th>
                <th className="num">Total TTC</th>
                <th className="num">Reste dû</th>
                <th>Relances</th>
                <th>Prochaine relance</th>
                <th>Agir</th>
              </tr>
            </thead>
            <tbody>
              {items.map((row) => (
                <tr key={row.document_id} data-testid={`tracking-${row.document_id}`}>
                  <td>
                    <Link href={`/documents/${row.document_id}`}>{row.number ?? 'Sans numéro'}</Link>
                  </td>
                  <td>{row.contact_name ? <Link href={`/contacts/${contactOf.get(row.document_id)}`}>{row.contact_name}</Link> : <span className="muted">Contact supprimé</span>}</td>
                  <td>{formatDay(row.due_date) || '—'}</td>
                  <td className="num">{row.days_overdue > 0 ? <span className="chip chip-red">{row.days_overdue} j</span> : <span className="muted">—</span>}</td>
                  <td className="num">{formatMoney(row.total_ttc_cents)}</td>
                  <td className="num">
                    <strong>{formatMoney(row.balance_cents)}</strong>
                  </td>
                  <td>
                    {row.sent_count} {pluralWord(row.sent_count, 'envoyée')}
                    {row.pending_count > 0 && `, ${row.pending_count} ${pluralWord(row.pending_count, 'programmée')}`}
                  </td>
                  <td>{row.exhausted ? <span className="chip chip-amber">relances épuisées</span> : formatInstant(row.next_at) || '—'}</td>
                  <td className="row-actions">
                    {/* Bound here, on the server: a form bound in the browser would not submit without JavaScript. */}
                    <RemindNow action={addReminderAction.bind(null, row.document_id)} number={row.number ?? ''} />
                    <Link className="btn btn-sm" href={`/documents/${row.document_id}#paiements`}>
                      Encaisser
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}
