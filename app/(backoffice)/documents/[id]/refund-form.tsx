'use client';

import { useActionState } from 'react';
import { Confirm, Field, FormActions, MoneyInput, SubmitButton } from '@/components/ui';
import { formatMoney, formatMoneyInput } from '@/lib/platform/format';
import { type BoundFormAction, initialFormState } from '@/lib/platform/next/client';
import { PaymentFields } from './payment-fields';

/** What can be given back to the client of an invoice (lib/domain/payments refundState), and the two ways to. */
export interface RefundView {
  /** What the client is owed, less the card refunds pending; what the forms propose. */
  refundable: number;
  /** Card refunds asked and not confirmed by Stripe yet. */
  pending: number;
  /** The most « Rembourser par carte » may give back (0: the invoice was not paid online). */
  online: number;
  /** Records a refund made by transfer, cheque or cash (bound on the server to the invoice). */
  record: BoundFormAction;
  /** Refunds through Stripe (bound on the server to the invoice). */
  byCard: BoundFormAction;
  /** One per page load: a double submission of the card refund asks Stripe once. */
  idempotencyKey: string;
}

/**
 * « Rembourser le client »: two explicit choices, each behind its confirmation (no JavaScript needed). By card, when the
 * invoice was paid online: Stripe gives the money back and the refund counts once Stripe confirms it. Offline: the
 * money was given back by transfer, cheque or cash, and is only recorded.
 */
export function RefundForm({ view, today }: { view: RefundView; today: string }) {
  const [card, cardAction] = useActionState(view.byCard, initialFormState);
  const [offline, offlineAction] = useActionState(view.record, initialFormState);
  return (
    <div style={{ marginTop: 16 }}>
      {[card.done, offline.done].filter(Boolean).map((done) => (
        <p key={done} className="notice notice-success" role="status">
          {done}
        </p>
      ))}
      {view.refundable > 0 && (
        // Remounted after each refund: the amounts proposed are what is still owed.
        <div key={`${view.refundable}-${view.online}`}>
          <h2>Rembourser le client</h2>
          {view.online > 0 && (
            <Confirm summary="Rembourser par carte…" style={{ marginBottom: 12 }}>
              <form className="form" action={cardAction} noValidate aria-label="Remboursement par carte">
                <p>
                  Stripe rend le montant sur la carte (ou le compte) qui a payé la facture en ligne. Il est compté quand Stripe confirme le
                  remboursement, en général en quelques secondes ; il ne peut pas être annulé.
                </p>
                <input type="hidden" name="idempotency_key" value={view.idempotencyKey} />
                <Field id="card-refund-amount" label="Montant à rembourser par carte (€)" hint={`Au plus ${formatMoney(view.online)}.`} error={card.errors?.amount}>
                  <MoneyInput name="amount" defaultValue={formatMoneyInput(view.online)} />
                </Field>
                <FormActions state={card} refused="Le remboursement n’est pas parti : corrigez le montant." placed={['amount']}>
                  <SubmitButton variant="danger" pendingLabel="Envoi à Stripe…">
                    Confirmer le remboursement par carte
                  </SubmitButton>
                </FormActions>
              </form>
            </Confirm>
          )}
          <Confirm summary="Enregistrer un remboursement hors ligne…" tone="notice">
            <form className="form" action={offlineAction} noValidate aria-label="Remboursement hors ligne">
              <p className="muted">
                Vous avez rendu l’argent vous-même : il est seulement enregistré, rien n’est envoyé à Stripe. Il va sur l’avoir s’il y en a un ; la
                facture garde son statut.
              </p>
              <PaymentFields
                state={offline}
                idPrefix="refund"
                labels={{ amount: 'Montant remboursé (€)', paidAt: 'Remboursé le', method: 'Moyen' }}
                amountHint={`Au plus ${formatMoney(view.refundable)}.`}
                amountDefault={formatMoneyInput(view.refundable)}
                today={today}
                methods={['bank_transfer', 'cheque', 'cash']}
              />
              <div className="form-actions">
                <SubmitButton pendingLabel="Enregistrement…">Enregistrer le remboursement hors ligne</SubmitButton>
              </div>
            </form>
          </Confirm>
        </div>
      )}
    </div>
  );
}
