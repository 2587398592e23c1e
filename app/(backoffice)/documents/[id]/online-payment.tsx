import Link from 'next/link';
import type { Db } from '@/db/client';
import { loadDocument } from '@/lib/domain/documents';
import { formatInstant, formatMoney } from '@/lib/platform/format';
import { DISPUTE_LABELS, ONLINE_METHOD_LABELS, ONLINE_STATUS_CHIPS, ONLINE_STATUS_LABELS } from '@/lib/platform/i18n';
import { type OnlinePayment as Attempt, onlinePaymentRefusal, onlinePaymentsOfDocument, paymentAccountState, paymentLinkOf, paymentProvider } from '@/lib/domain/payments';
import { paymentLinkAction } from './online-payment-actions';
import { PaymentLinkBox } from './online-payment-forms';
import { DataTable, StatusChip } from '@/components/ui';

const SETTINGS = <Link href="/settings/payments">Réglages → Paiements</Link>;

function Attempts({ attempts }: { attempts: Attempt[] }) {
  return (
    <DataTable
      label="Paiements en ligne"
      columns={[
        { key: 'date', header: 'Date', cell: (a) => formatInstant(a.created_at) },
        { key: 'moyen', header: 'Moyen', cell: (a) => a.method ? ONLINE_METHOD_LABELS[a.method] : <span className="muted">pas encore choisi</span> },
        { key: 'montant', header: 'Montant', money: (a) => a.amount },
        {
          key: 'statut',
          header: 'Statut',
          cell: (a) => (
            <>
              <StatusChip tone={ONLINE_STATUS_CHIPS[a.status] ?? 'chip-grey'}>{ONLINE_STATUS_LABELS[a.status] ?? a.status}</StatusChip>
              {a.status === 'failed' && a.failure_message && <span className="muted"> : {a.failure_message}</span>}
            </>
          ),
        },
        {
          key: 'rembourse',
          header: 'Remboursé',
          num: true,
          cell: (a) => a.amount_refunded > 0 ? formatMoney(a.amount_refunded) : <span className="muted">—</span>,
        },
        {
          key: 'contestation',
          header: 'Contestation',
          cell: (a) => a.dispute_status ? <StatusChip tone="chip-red">{DISPUTE_LABELS[a.dispute_status] ?? a.dispute_status}</StatusChip> : <span className="muted">—</span>,
        },
      ]}
      rows={attempts}
      rowKey={(a) => a.id}
      rowProps={() => ({ 'data-testid': 'online-payment' })}
    />
  );
}

/**
 * Online payment on the document page (DESIGN §8), for a finalized invoice or deposit invoice: its payment link
 * with a copy button (the e-mail with the link is the send dialog's « Joindre le lien de paiement »), and its online payments with their provider status (hidden when
 * there are none). What only Settings → Paiements can lift (no provider, no account, account not ready) is said
 * with a link to it.
 */
export async function OnlinePayment({ db, orgId, documentId }: { db: Db; orgId: string; documentId: string }) {
  const doc = await loadDocument(db, orgId, documentId);
  if ((doc.type !== 'facture' && doc.type !== 'acompte') || !doc.finalized_at) return null;
  const attempts = await onlinePaymentsOfDocument(db, orgId, doc.id);
  const payable = onlinePaymentRefusal(doc) === null;
  if (!payable && attempts.length === 0) return null;

  let body: React.ReactNode = null;
  if (payable) {
    const account = paymentProvider() ? await paymentAccountState(db, orgId) : null;
    if (!paymentProvider()) {
      body = <p className="muted">Le paiement en ligne n’est pas configuré sur cette instance ({SETTINGS}).</p>;
    } else if (!account) {
      body = <p className="muted">Pour que le client paie en ligne, connectez d’abord un compte Stripe dans {SETTINGS}.</p>;
    } else {
      const link = await paymentLinkOf(db, orgId, doc.id);
      body = (
        <>
          {!account.charges_enabled && (
            <p className="notice notice-warning" role="note">
              Le compte Stripe n’accepte pas encore de paiements : terminez sa configuration dans {SETTINGS}.
            </p>
          )}
          <h3>Lien de paiement</h3>
          {link && !link.url && (
            <p className="muted">Le lien existant ne peut plus être affiché (la clé du serveur a changé) : l’envoi par e-mail avec le lien de paiement en crée un nouveau.</p>
          )}
          <PaymentLinkBox documentId={doc.id} url={link?.url ?? null} create={paymentLinkAction.bind(null, doc.id)} />
        </>
      );
    }
  }
  return (
    <section className="card" aria-label="Paiement en ligne">
      <h2>Paiement en ligne</h2>
      <div className="stack">
        {body}
        {attempts.length > 0 && <Attempts attempts={attempts} />}
      </div>
    </section>
  );
}
