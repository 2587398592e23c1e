'use client';

import { useActionState } from 'react';
import { Field, FormErrors, Input, MoneyInput, Select, SubmitButton } from '@/components/form';
import { formatMoney, formatMoneyInput } from '@/lib/format';
import { type BoundFormAction, initialFormState } from '@/lib/http/form-state';
import { PAYMENT_METHOD_LABELS } from '../labels';

interface Props {
  /** Records a refund on the invoice (bound on the server): it goes on the invoice's credit note when there is one. */
  record: BoundFormAction;
  /** What the client is owed, in cents (lib/payments/refunds.ts refundableAmount): the amount proposed and its bound. */
  owed: number;
  today: string;
}

/** "Rembourser": the money given back to a client who is owed some (an overpayment, or a credit note after payment). */
export function RefundForm({ record, owed, today }: Props) {
  const [state, formAction] = useActionState(record, initialFormState);
  const error = (key: string) => state.errors?.[key];
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
          <FormErrors state={state} placed={['amount', 'paid_at', 'method', 'reference']} />
          <div className="grid-2">
            <Field id="refund-amount" label="Montant remboursé (€)" hint={`Au plus ${formatMoney(owed)}.`} error={error('amount')}>
              <MoneyInput name="amount" defaultValue={formatMoneyInput(owed)} />
            </Field>
            <Field id="refund-paid_at" label="Remboursé le" error={error('paid_at')}>
              <Input name="paid_at" type="date" max={today} defaultValue={today} />
            </Field>
            <Field id="refund-method" label="Moyen" error={error('method')}>
              <Select name="method" defaultValue="bank_transfer">
                {Object.entries(PAYMENT_METHOD_LABELS).map(([v, label]) => (
                  <option key={v} value={v}>
                    {label}
                  </option>
                ))}
              </Select>
            </Field>
            <Field id="refund-reference" label="Référence" error={error('reference')}>
              <Input name="reference" placeholder="Référence du virement, n° de chèque…" />
            </Field>
          </div>
          <div className="form-actions">
            <SubmitButton pendingLabel="Enregistrement…">Enregistrer le remboursement</SubmitButton>
          </div>
        </form>
      )}
    </>
  );
}
