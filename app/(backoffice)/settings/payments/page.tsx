import type { Metadata } from 'next';
import { ApiError } from '@/lib/platform/errors';
import { formatInstant } from '@/lib/platform/format';
import { requireStaffOrg } from '@/lib/platform/next';
import { CAPABILITY_LABELS, requirementsInFrench } from '@/lib/platform/i18n';
import { type PaymentAccountState, paymentAccountState, paymentProvider, refreshAccount } from '@/lib/domain/payments';
import { ActionForm, Confirm, StatusChip } from '@/components/ui';
import { connectAction, disconnectAction, refreshAction } from './actions';

export const metadata: Metadata = { title: 'Paiements' };

const capability = (status: string) => CAPABILITY_LABELS[status] ?? status;

function Readiness({ account }: { account: PaymentAccountState }) {
  const due = requirementsInFrench(account.requirements_due);
  return (
    <dl className="props" data-testid="payment-account">
      <dt>Compte Stripe</dt>
      <dd>
        <code>{account.account_id}</code>
      </dd>
      <dt>Encaissements</dt>
      <dd data-testid="charges-enabled">
        {account.charges_enabled ? (
          <StatusChip tone="chip-green">autorisés</StatusChip>
        ) : (
          <StatusChip tone="chip-amber">pas encore autorisés</StatusChip>
        )}
      </dd>
      <dt>Paiement par carte</dt>
      <dd data-testid="card-payments">{capability(account.card_payments)}</dd>
      <dt>Prélèvement SEPA</dt>
      <dd data-testid="sepa-payments">{capability(account.sepa_debit_payments)}</dd>
      <dt>À fournir à Stripe</dt>
      <dd data-testid="requirements">
        {due.length === 0 ? (
          'rien pour l’instant'
        ) : (
          <ul>
            {due.map((need) => (
              <li key={need}>{need}</li>
            ))}
          </ul>
        )}
      </dd>
      <dt>État lu le</dt>
      <dd>{formatInstant(account.refreshed_at, { time: 'medium' })}</dd>
    </dl>
  );
}

export default async function PaymentsSettingsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const staff = await requireStaffOrg();
  const query = await searchParams;
  const header = (
    <div className="page-header">
      <h1>Paiements</h1>
    </div>
  );
  if (!paymentProvider()) {
    return (
      <>
        {header}
        <section className="card">
          <h2>Paiement en ligne non configuré</h2>
          <p data-testid="payments-disabled">
            Le paiement en ligne n’est pas configuré sur cette instance de Paraphe : aucune clé Stripe n’y est définie.
          </p>
          <p className="muted">
            Pour l’activer, l’exploitant définit <code>STRIPE_SECRET_KEY</code> (la clé secrète de la plateforme Stripe Connect) et{' '}
            <code>STRIPE_WEBHOOK_SECRET</code> (le secret de signature de son point de réception Connect), puis redémarre l’application. Voir la
            documentation, <code>docs/payments.md</code>.
          </p>
        </section>
      </>
    );
  }

  let account = await paymentAccountState(staff.db, staff.orgId);
  let unread = false;
  // Back from onboarding (return_url): what the org just did is read from the provider at once.
  if (account && query.from === 'onboarding') {
    try {
      account = await refreshAccount(staff.db, staff.orgId);
    } catch (err) {
      if (!(err instanceof ApiError) || err.status === 500) throw err;
      unread = true;
    }
  }
  const admin = staff.role === 'owner' || staff.role === 'admin';
  const unfinished = account && (!account.charges_enabled || account.requirements_due.length > 0);

  return (
    <>
      {header}
      <p className="muted">
        Vos clients paient vos factures en ligne, par carte ou par prélèvement SEPA, sur votre propre compte Stripe : l’argent arrive chez vous,
        Paraphe enregistre le paiement sur la facture.
      </p>
      {query.onboarding === 'failed' && (
        <div className="notice notice-warning" role="alert">
          Le lien de configuration n’a pas pu être renouvelé : réessayez.
        </div>
      )}
      {unread && (
        <div className="notice notice-warning" role="alert">
          Stripe n’a pas répondu : l’état affiché est celui de la dernière lecture. Cliquez sur « Actualiser » dans un instant.
        </div>
      )}
      {!account ? (
        <section className="card">
          <h2>Compte Stripe</h2>
          <p data-testid="no-account">Aucun compte Stripe n’est connecté : le paiement en ligne est inactif pour votre organisation.</p>
          {admin ? (
            <ActionForm action={connectAction} label="Connecter un compte Stripe" pendingLabel="Ouverture de Stripe…" variant="primary">
              <p className="muted">
                Un compte Stripe est créé pour votre organisation, puis Stripe vous demande l’identité de l’entreprise, de son représentant et le
                compte bancaire qui reçoit les versements.
              </p>
            </ActionForm>
          ) : (
            <p className="muted">Un administrateur ou un propriétaire de l’organisation peut le connecter.</p>
          )}
        </section>
      ) : (
        <section className="card">
          <h2>Compte Stripe</h2>
          <Readiness account={account} />
          <div className="toolbar" style={{ marginTop: 12, alignItems: 'flex-start' }}>
            {unfinished && admin && (
              <ActionForm action={connectAction} label="Terminer la configuration" pendingLabel="Ouverture de Stripe…" variant="primary" />
            )}
            <ActionForm action={refreshAction} label="Actualiser" pendingLabel="Lecture…" />
          </div>
          {staff.role === 'owner' && (
            <Confirm summary="Déconnecter le compte Stripe…" style={{ marginTop: 16 }}>
              <p>
                Vos clients ne pourront plus payer en ligne : les liens de paiement déjà envoyés cesseront de fonctionner. Les paiements déjà
                enregistrés restent sur les factures, et le compte reste le vôtre chez Stripe.
              </p>
              <ActionForm action={disconnectAction} label="Déconnecter" pendingLabel="Déconnexion…" variant="danger" />
            </Confirm>
          )}
        </section>
      )}
    </>
  );
}
