'use client';

import { useActionState } from 'react';
import { DataTable, SubmitButton } from '@/components/ui';
import type { OnlineRefund, Payment } from '@/lib/domain/payments';
import { formatDay, formatMoney, formatMoneyInput } from '@/lib/platform/format';
import { type BoundFormAction, initialFormState } from '@/lib/platform/next/client';
import { PAYMENT_METHOD_LABELS } from '../labels';
import { PaymentFields } from './payment-fields';
import { OnlineRefunds } from './online-refunds';
import { RefundForm, type RefundView } from './refund-form';

interface Props {
  /** Records a payment on this invoice (bound on the server). */
  record: BoundFormAction;
  totalTtc: number;
  totalPaid: number;
  /** The document's remaining_due (lib/domain/documents/balance.ts): negative when overpaid. */
  remainingDue: number;
  /** Each with its deletion, bound on the server; refunds (negative) too, `on` naming the credit note they were recorded on. */
  payments: Array<Payment & { remove: BoundFormAction; on?: string | null }>;
  canRecord: boolean;
  today: string;
  /** The finalized credit note of this invoice, which the balance of the statistics also deducts. */
  creditNote: { number: string | null; total_ttc: number } | null;
  /** What the client may be given back (an overpayment, or the credit note after payment) and the two ways to. */
  refunds: RefundView;
  /** This invoice's card refunds, with their status at Stripe. */
  online: OnlineRefund[];
}

/** The payments of an issued invoice, its balance (the API's remaining_due), and the form to record one. */
export function PaymentsPanel({ record, totalTtc, totalPaid, remainingDue: remaining, payments, canRecord, today, creditNote, refunds, online }: Props) {
  // Given back to the client on the credit note (its refunds are negative payments of this list).
  const refunded = -payments.filter((p) => p.amount < 0 && p.on).reduce((sum, p) => sum + p.amount, 0);
  const [state, formAction] = useActionState(record, initialFormState);

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
            <dd data-testid="credit-note-line">
              {/* While money is due the credit note lowers it; once nothing is due it is money owed back to the client. */}
              {creditNote.number} : {formatMoney(creditNote.total_ttc)} TTC
              {remaining > 0 ? ', à déduire de ce qui reste dû' : refunds.refundable + refunds.pending > 0 ? ', à rembourser au client' : ', remboursé au client'}
            </dd>
          </>
        )}
        {refunded > 0 && (
          <>
            <dt>Remboursé au client</dt>
            <dd data-testid="refunded">{formatMoney(refunded)}</dd>
          </>
        )}
        {refunds.pending > 0 && (
          <>
            <dt>Remboursement par carte en cours</dt>
            <dd data-testid="refund-pending">{formatMoney(refunds.pending)}</dd>
          </>
        )}
        {refunds.refundable > 0 && (
          <>
            <dt>{creditNote && remaining <= 0 ? 'Reste à rembourser au client' : 'Trop-perçu / avoir à rembourser'}</dt>
            <dd data-testid="refundable">
              <strong>{formatMoney(refunds.refundable)}</strong>
            </dd>
          </>
        )}
      </dl>

      <PaymentsTable label="Paiements reçus" dateHeader="Reçu le" rows={payments} empty="Aucun paiement reçu." />
      <OnlineRefunds refunds={online} />

      {state.done && (
        <p className="notice notice-success" role="status">
          {state.done}
        </p>
      )}
      {canRecord && (
        // Remounted after each payment: the amount proposed is the new balance.
        <form className="form" action={formAction} key={totalPaid} style={{ marginTop: 16 }} noValidate>
          <h2>Enregistrer un paiement</h2>
          <PaymentFields
            state={state}
            idPrefix="payment"
            labels={{ amount: 'Montant reçu (€)', paidAt: 'Reçu le', method: 'Moyen de paiement' }}
            amountHint="Plus que le reste dû est accepté (trop-perçu)."
            amountDefault={remaining > 0 ? formatMoneyInput(remaining) : ''}
            today={today}
          />
          <div className="form-actions">
            <SubmitButton pendingLabel="Enregistrement…">Enregistrer le paiement</SubmitButton>
          </div>
        </form>
      )}
      <RefundForm view={refunds} today={today} />
    </section>
  );
}

/**
 * Payments or refunds with their deletions (the refunds panel of a credit note uses it too): a refund (negative) says
 * so, with the credit note it was recorded on.
 */
export function PaymentsTable({ label, dateHeader, rows, empty }: { label: string; dateHeader: string; rows: Array<Payment & { remove: BoundFormAction; on?: string | null }>; empty: string }) {
  if (!rows.length) return <p className="muted">{empty}</p>;
  return (
    <DataTable
      label={label}
      style={{ marginTop: 12 }}
      columns={[
        { key: 'paid_at', header: dateHeader, cell: (p) => formatDay(p.paid_at) },
        {
          key: 'method',
          header: 'Moyen',
          cell: (p) => (p.amount < 0 ? `Remboursement${p.on ? ` sur ${p.on}` : ''} · ${PAYMENT_METHOD_LABELS[p.method]}` : PAYMENT_METHOD_LABELS[p.method]),
        },
        { key: 'reference', header: 'Référence', cell: (p) => p.reference ?? <span className="muted">—</span> },
        { key: 'amount', header: 'Montant', money: (p) => p.amount },
        { key: 'remove', header: <span className="sr-only">Supprimer</span>, cell: (p) => <DeletePayment payment={p} /> },
      ]}
      rows={rows}
      rowKey={(p) => p.id}
    />
  );
}

/** A payment's or a refund's deletion button (the refunds panel of a credit note uses it too). */
export function DeletePayment({ payment }: { payment: Payment & { remove: BoundFormAction } }) {
  const [state, formAction] = useActionState(payment.remove, initialFormState);
  return (
    <form action={formAction}>
      <SubmitButton variant="danger" small aria-label={`Supprimer le paiement de ${formatMoney(payment.amount)} du ${formatDay(payment.paid_at)}`}>
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
