'use client';

import { useActionState } from 'react';
import { Field, FormErrors, Input, MoneyInput, Select, SubmitButton } from '@/components/form';
import type { Payment } from '@/lib/payments/schemas';
import { formatDay, formatMoney, formatMoneyInput } from '@/lib/format';
import { type BoundFormAction, initialFormState } from '@/lib/http/form-state';
import { PAYMENT_METHOD_LABELS } from '../labels';
import { RefundForm } from './refund-form';

interface Props {
  /** Records a payment on this invoice (bound on the server). */
  record: BoundFormAction;
  totalTtc: number;
  totalPaid: number;
  /** The document's remaining_due (lib/documents/balance.ts): negative when overpaid. */
  remainingDue: number;
  /** Each with its deletion, bound on the server; refunds (negative) too, `on` naming the credit note they were recorded on. */
  payments: Array<Payment & { remove: BoundFormAction; on?: string | null }>;
  canRecord: boolean;
  today: string;
  /** The finalized credit note of this invoice, which the balance of the statistics also deducts. */
  creditNote: { number: string | null; total_ttc: number } | null;
  /** What the client is owed (an overpayment, or the credit note after payment), in cents, and the refund form's action. */
  owed: number;
  refund: BoundFormAction;
}

/** The payments of an issued invoice, its balance (the API's remaining_due), and the form to record one. */
export function PaymentsPanel({ record, totalTtc, totalPaid, remainingDue: remaining, payments, canRecord, today, creditNote, owed, refund }: Props) {
  const [state, formAction] = useActionState(record, initialFormState);
  const error = (key: string) => state.errors?.[key];

  return (
    <section className="card" aria-label="Paiements" id="paiements">
      <h2>Paiements</h2>
      <dl className="props" data-testid="balance">
        <dt>Total TTC</dt>
        <dd>{formatMoney(totalTtc)}</dd>
        <dt>Déjà payé</dt>
        <dd data-testid="total-paid">{formatMoney(totalPaid)}</dd>
        <dt>{remaining < 0 ? 'Trop-perçu' : 'Reste dû'}</dt>
        <dd data-testid="remaining-due">
          <strong>{formatMoney(Math.abs(remaining))}</strong>
        </dd>
        {creditNote && (
          <>
            <dt>Avoir émis</dt>
            <dd>
              {creditNote.number} : {formatMoney(creditNote.total_ttc)} TTC, à déduire de ce qui reste dû
            </dd>
          </>
        )}
        {owed > 0 && (
          <>
            <dt>Trop-perçu / avoir à rembourser</dt>
            <dd data-testid="refundable">
              <strong>{formatMoney(owed)}</strong>
            </dd>
          </>
        )}
      </dl>

      {payments.length > 0 ? (
        <table className="table" aria-label="Paiements reçus" style={{ marginTop: 12 }}>
          <thead>
            <tr>
              <th>Reçu le</th>
              <th>Moyen</th>
              <th>Référence</th>
              <th className="num">Montant</th>
              <th>
                <span className="sr-only">Supprimer</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {payments.map((p) => (
              <tr key={p.id}>
                <td>{formatDay(p.paid_at)}</td>
                <td>{p.amount < 0 ? `Remboursement${p.on ? ` sur ${p.on}` : ''} · ${PAYMENT_METHOD_LABELS[p.method]}` : PAYMENT_METHOD_LABELS[p.method]}</td>
                <td>{p.reference ?? <span className="muted">—</span>}</td>
                <td className="num">{formatMoney(p.amount)}</td>
                <td>
                  <DeletePayment payment={p} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="muted">Aucun paiement reçu.</p>
      )}

      {state.done && (
        <p className="notice notice-success" role="status">
          {state.done}
        </p>
      )}
      {canRecord && (
        // Remounted after each payment: the amount proposed is the new balance.
        <form className="form" action={formAction} key={totalPaid} style={{ marginTop: 16 }} noValidate>
          <h2>Enregistrer un paiement</h2>
          <FormErrors state={state} placed={['amount', 'paid_at', 'method', 'reference']} />
          <div className="grid-2">
            <Field id="payment-amount" label="Montant reçu (€)" hint="Plus que le reste dû est accepté (trop-perçu)." error={error('amount')}>
              <MoneyInput name="amount" defaultValue={remaining > 0 ? formatMoneyInput(remaining) : ''} />
            </Field>
            <Field id="payment-paid_at" label="Reçu le" error={error('paid_at')}>
              <Input name="paid_at" type="date" max={today} defaultValue={today} />
            </Field>
            <Field id="payment-method" label="Moyen de paiement" error={error('method')}>
              <Select name="method" defaultValue="bank_transfer">
                {Object.entries(PAYMENT_METHOD_LABELS).map(([v, label]) => (
                  <option key={v} value={v}>
                    {label}
                  </option>
                ))}
              </Select>
            </Field>
            <Field id="payment-reference" label="Référence" error={error('reference')}>
              <Input name="reference" placeholder="Référence du virement, n° de chèque…" />
            </Field>
          </div>
          <div className="form-actions">
            <SubmitButton pendingLabel="Enregistrement…">Enregistrer le paiement</SubmitButton>
          </div>
        </form>
      )}
      <RefundForm record={refund} owed={owed} today={today} />
    </section>
  );
}

/** A payment's or a refund's deletion button (the refunds panel of a credit note uses it too). */
export function DeletePayment({ payment }: { payment: Payment & { remove: BoundFormAction } }) {
  const [state, formAction] = useActionState(payment.remove, initialFormState);
  return (
    <form action={formAction}>
      <SubmitButton className="btn btn-sm btn-danger" aria-label={`Supprimer le paiement de ${formatMoney(payment.amount)} du ${formatDay(payment.paid_at)}`}>
        Supprimer
      </SubmitButton>
      {state.error && (
        <span className="field-error" role="alert">
          {state.error}
        </span>
      )}
    </form>
  );
}
