'use client';

import { useActionState } from 'react';
import type { Payment } from '@/lib/billing/schemas';
import { formatDay, formatMoney, formatMoneyInput } from '@/lib/format';
import { deletePaymentAction, recordPaymentAction } from '../actions';
import { PAYMENT_METHOD_LABELS } from '../labels';

interface Props {
  documentId: string;
  totalTtc: number;
  totalPaid: number;
  payments: Payment[];
  canRecord: boolean;
  today: string;
  /** The finalized credit note of this invoice, which the balance of the statistics also deducts. */
  creditNote: { number: string | null; total_ttc: number } | null;
}

/** The payments of an issued invoice, its balance (the API's remaining_due), and the form to record one. */
export function PaymentsPanel({ documentId, totalTtc, totalPaid, payments, canRecord, today, creditNote }: Props) {
  const remaining = totalTtc - totalPaid;
  const [state, formAction, pending] = useActionState(recordPaymentAction.bind(null, documentId), {});
  const error = (key: string) => state.errors?.[key];

  return (
    <section className="card" aria-label="Paiements">
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
                <td>{PAYMENT_METHOD_LABELS[p.method]}</td>
                <td>{p.reference ?? <span className="muted">—</span>}</td>
                <td className="num">{formatMoney(p.amount)}</td>
                <td>
                  <DeletePayment documentId={documentId} payment={p} />
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
          {state.error && !Object.keys(state.errors ?? {}).length && (
            <p className="form-error" role="alert">
              {state.error}
            </p>
          )}
          <div className="grid-2">
            <div className="field" data-invalid={Boolean(error('amount'))}>
              <label htmlFor="payment-amount">Montant reçu (€)</label>
              <input id="payment-amount" name="amount" type="text" inputMode="decimal" defaultValue={remaining > 0 ? formatMoneyInput(remaining) : ''} />
              <span className="hint">Plus que le reste dû est accepté (trop-perçu).</span>
              {error('amount') && <span className="field-error">{error('amount')}</span>}
            </div>
            <div className="field" data-invalid={Boolean(error('paid_at'))}>
              <label htmlFor="payment-paid_at">Reçu le</label>
              <input id="payment-paid_at" name="paid_at" type="date" max={today} defaultValue={today} />
              {error('paid_at') && <span className="field-error">{error('paid_at')}</span>}
            </div>
            <div className="field" data-invalid={Boolean(error('method'))}>
              <label htmlFor="payment-method">Moyen de paiement</label>
              <select id="payment-method" name="method" defaultValue="bank_transfer">
                {Object.entries(PAYMENT_METHOD_LABELS).map(([v, label]) => (
                  <option key={v} value={v}>
                    {label}
                  </option>
                ))}
              </select>
              {error('method') && <span className="field-error">{error('method')}</span>}
            </div>
            <div className="field" data-invalid={Boolean(error('reference'))}>
              <label htmlFor="payment-reference">Référence</label>
              <input id="payment-reference" name="reference" type="text" placeholder="Référence du virement, n° de chèque…" />
              {error('reference') && <span className="field-error">{error('reference')}</span>}
            </div>
          </div>
          <div className="form-actions">
            <button className="btn btn-primary" type="submit" disabled={pending}>
              {pending ? 'Enregistrement…' : 'Enregistrer le paiement'}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}

function DeletePayment({ documentId, payment }: { documentId: string; payment: Payment }) {
  const [state, formAction, pending] = useActionState(deletePaymentAction.bind(null, documentId, payment.id), {});
  return (
    <form action={formAction}>
      <button type="submit" className="btn btn-ghost btn-sm" disabled={pending} aria-label={`Supprimer le paiement de ${formatMoney(payment.amount)} du ${formatDay(payment.paid_at)}`}>
        Supprimer
      </button>
      {state.error && (
        <span className="field-error" role="alert">
          {state.error}
        </span>
      )}
    </form>
  );
}
