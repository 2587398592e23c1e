import type { Metadata } from 'next';
import { z } from 'zod';
import { formatInstant } from '@/lib/platform/format';
import { requireStaffOrg } from '@/lib/platform/next';
import { configuredSmsProvider, listOutboxSms } from '@/lib/domain/sms';
import { DataTable, EmptyState, LinkButton } from '@/components/ui';

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
          <LinkButton href="/dev/mail">
            Boîte d’envoi des e-mails
          </LinkButton>
          {before && (
            <LinkButton href="/dev/sms">
              Plus récents
            </LinkButton>
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
          <EmptyState>Aucun SMS dans la boîte d’envoi.</EmptyState>
        ) : (
          <DataTable
            label="SMS de la boîte d’envoi"
            columns={[
              { key: 'date', header: 'Date', cell: (sms) => formatInstant(sms.created_at) || '—' },
              { key: 'a', header: 'À', cell: (sms) => sms.to },
              { key: 'message', header: 'Message', cell: (sms) => sms.body },
              { key: 'objet', header: 'Objet', cell: (sms) => PURPOSES[sms.purpose] ?? sms.purpose },
            ]}
            rows={page.items}
            rowKey={(sms) => sms.id}
            rowProps={(sms) => ({ 'data-testid': `sms-${sms.id}` })}
          />
        )}
        {page.nextBefore && (
          <div className="toolbar" style={{ marginTop: 12 }}>
            <LinkButton small href={`/dev/sms?before=${page.nextBefore}`}>
              Plus anciens
            </LinkButton>
          </div>
        )}
      </section>
    </>
  );
}
