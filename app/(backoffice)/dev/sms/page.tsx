import type { Metadata } from 'next';
import Link from 'next/link';
import { z } from 'zod';
import { formatInstant } from '@/lib/platform/format';
import { requireStaffOrg } from '@/lib/platform/http/staff';
import { configuredSmsProvider, listOutboxSms } from '@/lib/domain/sms';

export const metadata: Metadata = { title: 'SMS envoyés (démo)' };

const PURPOSES: Record<string, string> = { signature_code: 'Code de signature' };

/** The SMS outbox, beside the mail outbox: with no SMS_PROVIDER nothing leaves, each message stays here as sent. */
export default async function SmsOutboxPage({ searchParams }: { searchParams: Promise<{ before?: string }> }) {
  const staff = await requireStaffOrg();
  const { before } = await searchParams;
  const page = await listOutboxSms(staff.db, staff.orgId, { before: z.uuid().safeParse(before).success ? before : null });
  const provider = configuredSmsProvider();
  return (
    <>
      <div className="page-header">
        <h1>SMS envoyés (démo)</h1>
        <div className="actions">
          <Link className="btn" href="/dev/mail">
            Boîte d’envoi des e-mails
          </Link>
          {before && (
            <Link className="btn" href="/dev/sms">
              Plus récents
            </Link>
          )}
        </div>
      </div>
      {provider ? (
        <div className="notice notice-warning">
          Un fournisseur de SMS est configuré (SMS_PROVIDER={provider}) : les nouveaux SMS partent réellement et n’apparaissent plus ici. Seuls ceux envoyés sans fournisseur y
          restent.
        </div>
      ) : (
        <div className="notice">
          Aucun fournisseur de SMS n’est configuré : rien ne part. Chaque SMS (les codes de signature, par exemple) reste ici, tel que le destinataire l’aurait reçu. Définissez
          SMS_PROVIDER pour envoyer réellement.
        </div>
      )}
      <section className="card">
        {page.items.length === 0 ? (
          <p className="empty">Aucun SMS dans la boîte d’envoi.</p>
        ) : (
          <table className="table" aria-label="SMS de la boîte d’envoi">
            <thead>
              <tr>
                <th>Date</th>
                <th>À</th>
                <th>Message</th>
                <th>Objet</th>
              </tr>
            </thead>
            <tbody>
              {page.items.map((sms) => (
                <tr key={sms.id} data-testid={`sms-${sms.id}`}>
                  <td>{formatInstant(sms.created_at) || '—'}</td>
                  <td>{sms.to}</td>
                  <td>{sms.body}</td>
                  <td>{PURPOSES[sms.purpose] ?? sms.purpose}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {page.nextBefore && (
          <div className="toolbar" style={{ marginTop: 12 }}>
            <Link className="btn btn-sm" href={`/dev/sms?before=${page.nextBefore}`}>
              Plus anciens
            </Link>
          </div>
        )}
      </section>
    </>
  );
}
