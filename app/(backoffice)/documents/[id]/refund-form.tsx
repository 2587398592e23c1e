'use client';

import { useActionState } from 'react';
import { SubmitButton } from '@/components/ui';
import { formatMoney, formatMoneyInput } from '@/lib/platform/format';
import { type BoundFormAction, initialFormState } from '@/lib/platform/next/client';
import { PaymentFields } from './payment-fields';

interface Props {
  /** Records a refund on the invoice (bound on the server): it goes on the invoice's credit note when there is one. */
  record: BoundFormAction;
  /** What the client is owed, in cents (lib/domain/payments/refunds.ts refundableAmount): the amount proposed and its bound. */
  owed: number;
  today: string;
}

/** "Rembourser": the money given back to a client who is owed some (an overpayment, or a credit note after payment). */
export function RefundForm({ record, owed, today }: Props) {
  const [state, formAction] = useActionState(record, initialFormState);
  return (
    <>
      {state.done && (
        <p className="notice notice-success" role="status">
          {state.done}
        </p>
      )}
      {owed > 0 && (
        // Remounted after each refund: the amount proposed is what is still owed.
        <form className="form" action={formAction} key={owed} style={{ marginTop: 16 }} noValidate aria-label="Rembourser le client">
          <h2>Rembourser</h2>
          <p className="muted">Le remboursement est enregistré en négatif, sur l’avoir s’il y en a un : la facture garde son statut.</p>
          <PaymentFields
            state={state}
            idPrefix="refund"
            labels={{ amount: 'Montant remboursé (€)', paidAt: 'Remboursé le', method: 'Moyen' }}
            amountHint={`Au plus ${formatMoney(owed)}.`}
            amountDefault={formatMoneyInput(owed)}
            today={today}
          />
          <div className="form-actions">
            <SubmitButton pendingLabel="Enregistrement…">Enregistrer le remboursement</SubmitButton>
          </div>
        </form>
      )}
    </>
  );
}
