import Link from 'next/link';
import { getDb } from '@/db/client';
import { todayParis } from '@/lib/platform/dates';
import { loadContactRow, loadDocument } from '@/lib/domain/documents/documents';
import { formatInstant, plural, pluralWord } from '@/lib/platform/format';
import { ladderKindOf } from '@/lib/domain/reminders/ladder';
import { reminderLadder, remindRefusal } from '@/lib/domain/reminders/reminders';
import { addReminderAction } from './reminder-ladder-actions';
import { AddReminderForm, DeleteReminderButton } from './reminder-ladder-controls';
import { REMINDER_STATUS_LABELS, reasonLabel, stepLabel, TONE_LABELS } from './reminder-labels';

/**
 * The reminder ladder of one document (server component): every step and manual reminder in schedule order with
 * its status, tone and outcome, a link to the e-mail sent, deletion of a pending one, and a form for a manual
 * reminder when the document can still be chased. Embed it: `<ReminderLadder orgId={…} documentId={…} />`.
 */
export async function ReminderLadder({ orgId, documentId }: { orgId: string; documentId: string }) {
  const db = await getDb();
  const doc = await loadDocument(db, orgId, documentId);
  const kind = ladderKindOf(doc.type);
  if (!kind) return null;
  const rows = await reminderLadder(db, orgId, documentId);
  const refusal = remindRefusal(doc, todayParis());
  const optedOut = (await loadContactRow(db, orgId, doc.contact_id))?.reminder_opt_out ?? false;
  const title = kind === 'payment' ? 'Relances de paiement' : 'Rappels d’expiration du devis';
  const pending = rows.filter((r) => r.status === 'pending').length;

  return (
    <section className="card" aria-label={title}>
      <h2>{title}</h2>
      {optedOut && (
        <p className="notice notice-warning">Ce client refuse les relances (fiche contact) : aucune ne lui est envoyée.</p>
      )}
      {rows.length === 0 ? (
        <p className="muted">
          {doc.status === 'draft'
            ? 'Les relances sont programmées à l’envoi du document, selon les réglages de facturation.'
            : 'Aucune relance : elles sont programmées au premier envoi par e-mail du document.'}{' '}
          <Link href="/settings/invoicing">Réglages des relances</Link>
        </p>
      ) : (
        <>
          <p className="muted">
            {pending > 0 ? `${plural(pending, 'relance')} ${pluralWord(pending, 'programmée')}, à 9 h (heure de Paris) pour les étapes.` : 'Aucune relance programmée.'}{' '}
            Une facture payée ou annulée, un devis accepté, refusé ou expiré n’est plus relancé.
          </p>
          <table className="table" aria-label="Échelle de relance">
            <thead>
              <tr>
                <th>Prévue le</th>
                <th>Étape</th>
                <th>Ton</th>
                <th>Statut</th>
                <th>Détail</th>
                <th>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => {
                const status = REMINDER_STATUS_LABELS[r.status];
                return (
                  <tr key={r.id} data-testid={`reminder-${r.id}`}>
                    <td>{(formatInstant(r.scheduled_at) || '—')}</td>
                    <td>{stepLabel(r.kind, r.offset_days)}</td>
                    <td>{r.tone ? TONE_LABELS[r.tone] : <span className="muted">{kind === 'payment' ? 'selon la date' : '—'}</span>}</td>
                    <td>
                      <span className={`chip ${status.chip}`}>{status.label}</span>
                    </td>
                    <td>
                      {r.status === 'sent' && r.email_id ? (
                        <Link href={`/dev/mail/${r.email_id}`}>E-mail du {(formatInstant(r.sent_at) || '—')}</Link>
                      ) : (
                        <span className="muted">{reasonLabel(r.reason)}</span>
                      )}
                      {r.message && <div className="muted prewrap">« {r.message} »</div>}
                    </td>
                    <td>{r.status === 'pending' && <DeleteReminderButton documentId={doc.id} reminderId={r.id} />}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </>
      )}
      {refusal || optedOut ? null : <AddReminderForm documentId={doc.id} action={addReminderAction.bind(null, doc.id)} payment={kind === 'payment'} />}
    </section>
  );
}
