import Link from 'next/link';
import { getDb } from '@/db/client';
import type { EmailStatus } from '@/db/schema';
import { listDocumentEmails } from '@/lib/platform/email';
import { formatInstant } from '@/lib/platform/format';
import { DataTable, EmptyState, StatusChip } from '@/components/ui';

export const EMAIL_STATUS_LABELS: Record<EmailStatus, { label: string; chip: string; hint: string }> = {
  queued: { label: 'en file', chip: 'chip-grey', hint: 'Enregistré, en attente d’envoi (nouvelle tentative si le fournisseur n’a pas répondu).' },
  sent: { label: 'envoyé', chip: 'chip-blue', hint: 'Accepté par le fournisseur (ou déposé dans la boîte d’envoi de démo).' },
  delivered: { label: 'délivré', chip: 'chip-green', hint: 'Remis au serveur de messagerie du destinataire.' },
  bounced: { label: 'rejeté', chip: 'chip-red', hint: 'Refusé par le serveur du destinataire : vérifiez l’adresse.' },
  failed: { label: 'échec', chip: 'chip-red', hint: 'Non envoyé après toutes les tentatives.' },
};

export function EmailStatusChip({ status }: { status: EmailStatus }) {
  const s = EMAIL_STATUS_LABELS[status];
  return (
    <StatusChip tone={s.chip} title={s.hint}>
      {s.label}
    </StatusChip>
  );
}


/**
 * The mail log of one document (server component): every e-mail about it, newest first, with its recipients,
 * subject, status and dates. Embed it in the document page: `<EmailLog orgId={staff.orgId} documentId={doc.id} />`.
 */
export async function EmailLog({ orgId, documentId, title = 'E-mails envoyés' }: { orgId: string; documentId: string; title?: string }) {
  const rows = await listDocumentEmails(await getDb(), orgId, documentId);
  return (
    <section className="card" aria-label={title}>
      <h2>{title}</h2>
      {rows.length === 0 ? (
        <EmptyState>Aucun e-mail pour ce document.</EmptyState>
      ) : (
        <DataTable
          label={title}
          columns={[
            { key: 'cree', header: 'Créé', cell: (email) => formatInstant(email.created_at) || '—' },
            {
              key: 'destinataires',
              header: 'Destinataires',
              cell: (email) => (
                <>
                  {email.to.join(', ')}
                  {email.cc.length > 0 && <div className="muted">cc {email.cc.join(', ')}</div>}
                </>
              ),
            },
            { key: 'objet', header: 'Objet', cell: (email) => <Link href={`/dev/mail/${email.id}`}>{email.subject}</Link> },
            {
              key: 'statut',
              header: 'Statut',
              cell: (email) => (
                <>
                  <EmailStatusChip status={email.status} />
                  {email.last_error && email.status !== 'sent' && email.status !== 'delivered' && <div className="muted">{email.last_error}</div>}
                </>
              ),
            },
            { key: 'envoye', header: 'Envoyé', cell: (email) => formatInstant(email.sent_at) || '—' },
            { key: 'delivre', header: 'Délivré', cell: (email) => formatInstant(email.delivered_at) || '—' },
          ]}
          rows={rows}
          rowKey={(email) => email.id}
          rowProps={(email) => ({ 'data-testid': `email-${email.id}` })}
        />
      )}
    </section>
  );
}
