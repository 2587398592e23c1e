import Link from 'next/link';
import { getDb } from '@/db/client';
import { todayParis } from '@/lib/platform/dates';
import { loadContactRow, loadDocument } from '@/lib/domain/documents';
import { formatInstant, plural, pluralWord } from '@/lib/platform/format';
import { ladderKindOf, reminderLadder, remindRefusal } from '@/lib/domain/reminders';
import { addReminderAction } from './reminder-ladder-actions';
import { AddReminderForm, DeleteReminderButton } from './reminder-ladder-controls';
import { REMINDER_STATUS_LABELS, reasonLabel, stepLabel, TONE_LABELS } from './reminder-labels';
import { DataTable, StatusChip } from '@/components/ui';

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
          <DataTable
            label="Échelle de relance"
            columns={[
              { key: 'scheduled_at', header: 'Prévue le', cell: (r) => formatInstant(r.scheduled_at) || '—' },
              { key: 'step', header: 'Étape', cell: (r) => stepLabel(r.kind, r.offset_days) },
              { key: 'tone', header: 'Ton', cell: (r) => (r.tone ? TONE_LABELS[r.tone] : <span className="muted">{kind === 'payment' ? 'selon la date' : '—'}</span>) },
              {
                key: 'status',
                header: 'Statut',
                cell: (r) => {
                  const status = REMINDER_STATUS_LABELS[r.status];
                  return <StatusChip tone={status.chip}>{status.label}</StatusChip>;
                },
              },
              {
                key: 'detail',
                header: 'Détail',
                cell: (r) => (
                  <>
                    {r.status === 'sent' && r.email_id ? (
                      <Link href={`/dev/mail/${r.email_id}`}>E-mail du {formatInstant(r.sent_at) || '—'}</Link>
                    ) : (
                      <span className="muted">{reasonLabel(r.reason)}</span>
                    )}
                    {r.message && <div className="muted prewrap">« {r.message} »</div>}
                  </>
                ),
              },
              {
                key: 'actions',
                header: <span className="sr-only">Actions</span>,
                cell: (r) => r.status === 'pending' && <DeleteReminderButton documentId={doc.id} reminderId={r.id} />,
              },
            ]}
            rows={rows}
            rowKey={(r) => r.id}
            rowProps={(r) => ({ 'data-testid': `reminder-${r.id}` })}
          />
        </>
      )}
      {refusal || optedOut ? null : <AddReminderForm documentId={doc.id} action={addReminderAction.bind(null, doc.id)} payment={kind === 'payment'} />}
    </section>
  );
}
