import type { Metadata } from 'next';
import Link from 'next/link';
import { z } from 'zod';
import { EmailStatusChip } from '@/components/email-log';
import { configuredTransport } from '@/lib/platform/email/config';
import { listOutboxEmails } from '@/lib/platform/email/mailbox';
import { formatInstant } from '@/lib/platform/format';
import { requireStaffOrg } from '@/lib/platform/http/staff';
import { TEMPLATE_LABELS } from './labels';

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
          <Link className="btn" href="/dev/sms">
            SMS envoyés
          </Link>
          {before && (
            <Link className="btn" href="/dev/mail">
              Plus récents
            </Link>
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
          <p className="empty">Aucun e-mail dans la boîte d’envoi.</p>
        ) : (
          <table className="table">
            <thead>
              <tr>
                <th>Date</th>
                <th>À</th>
                <th>Objet</th>
                <th>Modèle</th>
                <th className="num">Pièces jointes</th>
                <th>Statut</th>
              </tr>
            </thead>
            <tbody>
              {page.items.map((email) => (
                <tr key={email.id} data-testid={`mail-${email.id}`}>
                  <td>{(formatInstant(email.created_at) || '—')}</td>
                  <td>{email.to.join(', ')}</td>
                  <td>
                    <Link href={`/dev/mail/${email.id}`}>{email.subject}</Link>
                  </td>
                  <td>
                    {TEMPLATE_LABELS[email.template]} <span className="muted">({email.language})</span>
                  </td>
                  <td className="num">{email.attachments.length || '—'}</td>
                  <td>
                    <EmailStatusChip status={email.status} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {page.nextBefore && (
          <div className="toolbar" style={{ marginTop: 12 }}>
            <Link className="btn btn-sm" href={`/dev/mail?before=${page.nextBefore}`}>
              Plus anciens
            </Link>
          </div>
        )}
      </section>
    </>
  );
}
