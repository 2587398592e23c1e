import type { Metadata } from 'next';
import Link from 'next/link';
import { z } from 'zod';
import { EmailStatusChip } from '@/components/email/email-log';
import { configuredTransport, listOutboxEmails } from '@/lib/platform/email';
import { formatInstant } from '@/lib/platform/format';
import { requireStaffOrg } from '@/lib/platform/next';
import { TEMPLATE_LABELS } from './labels';
import { DataTable, EmptyState, LinkButton } from '@/components/ui';

export const metadata: Metadata = { title: 'Boîte d’envoi (démo)' };

export default async function MailboxPage({ searchParams }: { searchParams: Promise<{ before?: string }> }) {
  const staff = await requireStaffOrg();
  const { before } = await searchParams;
  const page = await listOutboxEmails(staff.db, staff.orgId, { before: z.uuid().safeParse(before).success ? before : null });
  return (
    <>
      <div className="page-header">
        <h1>Boîte d’envoi (démo)</h1>
        <div className="actions">
          <LinkButton href="/dev/sms">
            SMS envoyés
          </LinkButton>
          {before && (
            <LinkButton href="/dev/mail">
              Plus récents
            </LinkButton>
          )}
        </div>
      </div>
      {configuredTransport() === 'resend' ? (
        <div className="notice notice-warning">
          Resend est configuré (RESEND_API_KEY) : les nouveaux e-mails partent réellement et n’apparaissent plus ici. Seuls ceux envoyés sans fournisseur y restent.
        </div>
      ) : (
        <div className="notice">
          Aucun fournisseur d’e-mail n’est configuré : rien ne part. Chaque e-mail reste ici, tel que le destinataire l’aurait reçu. Définissez RESEND_API_KEY pour envoyer
          réellement.
        </div>
      )}
      <section className="card">
        {page.items.length === 0 ? (
          <EmptyState>Aucun e-mail dans la boîte d’envoi.</EmptyState>
        ) : (
          <DataTable
            label="E-mails de la boîte d’envoi"
            columns={[
              { key: 'date', header: 'Date', cell: (email) => (formatInstant(email.created_at) || '—') },
              { key: 'a', header: 'À', cell: (email) => email.to.join(', ') },
              { key: 'objet', header: 'Objet', cell: (email) => <Link href={`/dev/mail/${email.id}`}>{email.subject}</Link> },
              { key: 'modele', header: 'Modèle', cell: (email) => <>{TEMPLATE_LABELS[email.template]} <span className="muted">({email.language})</span></> },
              { key: 'pieces_jointes', header: 'Pièces jointes', num: true, cell: (email) => email.attachments.length || '—' },
              { key: 'statut', header: 'Statut', cell: (email) => <EmailStatusChip status={email.status} /> },
            ]}
            rows={page.items}
            rowKey={(email) => email.id}
            rowProps={(email) => ({ 'data-testid': `mail-${email.id}` })}
          />
        )}
        {page.nextBefore && (
          <div className="toolbar" style={{ marginTop: 12 }}>
            <LinkButton small href={`/dev/mail?before=${page.nextBefore}`}>
              Plus anciens
            </LinkButton>
          </div>
        )}
      </section>
    </>
  );
}
