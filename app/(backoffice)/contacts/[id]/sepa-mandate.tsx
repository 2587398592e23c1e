import { ActionForm, Confirm, StatusChip } from '@/components/ui';
import type { Db } from '@/db/client';
import { formatInstant } from '@/lib/platform/format';
import { mandateOfContact, paymentProvider } from '@/lib/domain/payments';
import { revokeMandateAction } from './mandate-actions';

const iban = (last4: string | null) => (last4 ? `IBAN ••••${last4}` : 'IBAN non communiqué');

/**
 * The client's SEPA direct-debit mandate (DESIGN §8: one live at a time): its state, the IBAN's last four digits,
 * and "Révoquer" (with a confirmation, no JavaScript needed) while it is live. Hidden when online payment is off
 * and the client never had one.
 */
export async function SepaMandate({ db, orgId, contactId }: { db: Db; orgId: string; contactId: string }) {
  const mandate = await mandateOfContact(db, orgId, contactId);
  if (!mandate && !paymentProvider()) return null;
  const live = mandate?.status === 'active' || mandate?.status === 'pending';
  let state: React.ReactNode;
  if (!mandate) state = 'Aucun mandat : le client n’a pas autorisé de prélèvement.';
  else if (mandate.status === 'active') state = `Actif depuis le ${formatInstant(mandate.created_at, { time: null })}, ${iban(mandate.iban_last4)}.`;
  else if (mandate.status === 'pending') state = `En attente de confirmation par la banque (signé le ${formatInstant(mandate.created_at, { time: null })}), ${iban(mandate.iban_last4)}.`;
  else if (mandate.status === 'revoked') state = `Révoqué le ${formatInstant(mandate.revoked_at, { time: null })} (${iban(mandate.iban_last4)}) : aucun mandat en cours.`;
  else state = `Inactif : la banque ou Stripe y a mis fin (${iban(mandate.iban_last4)}). Aucun mandat en cours.`;
  return (
    <section className="card" aria-label="Mandat SEPA">
      <h2>Mandat de prélèvement SEPA</h2>
      <p data-testid="sepa-mandate">
        {mandate?.status === 'active' && <StatusChip tone="chip-green">actif</StatusChip>} {state}
      </p>
      {live && (
        <Confirm summary="Révoquer le mandat…">
          <p>Le client ne pourra plus être prélevé avec ce mandat ; pour reprendre les prélèvements, il devra en signer un nouveau.</p>
          <ActionForm action={revokeMandateAction.bind(null, contactId)} label="Révoquer" pendingLabel="Révocation…" variant="danger" />
        </Confirm>
      )}
    </section>
  );
}
