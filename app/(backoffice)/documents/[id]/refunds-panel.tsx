import type { Payment } from '@/lib/payments/schemas';
import { formatDay, formatMoney } from '@/lib/format';
import type { BoundFormAction } from '@/lib/http/form-state';
import { PAYMENT_METHOD_LABELS } from '../labels';
import { DeletePayment } from './payments-panel';
import { RefundForm } from './refund-form';

interface Props {
  /** The refunds recorded on this credit note (negative amounts), each with its deletion bound on the server. */
  refunds: Array<Payment & { remove: BoundFormAction }>;
  /** What the client of the credited invoice is still owed, and the refund form's action bound to that invoice. */
  owed: number;
  refund: BoundFormAction;
  today: string;
}

/** A finalized credit note's refunds: the money paid back to the client for it, and the form for what is still owed. */
export function RefundsPanel({ refunds, owed, refund, today }: Props) {
  const total = refunds.reduce((sum, r) => sum + r.amount, 0);
  return (
    <section className="card" aria-label="Remboursements" id="remboursements">
      <h2>Remboursements</h2>
      <dl className="props" data-testid="refunds-balance">
        <dt>Déjà remboursé</dt>
        <dd>{formatMoney(-total)}</dd>
        <dt>Reste à rembourser</dt>
        <dd data-testid="refundable">
          <strong>{formatMoney(owed)}</strong>
        </dd>
      </dl>
      {refunds.length > 0 ? (
        <table className="table" aria-label="Remboursements effectués" style={{ marginTop: 12 }}>
          <thead>
            <tr>
              <th>Remboursé le</th>
              <th>Moyen</th>
              <th>Référence</th>
              <th className="num">Montant</th>
              <th>
                <span className="sr-only">Supprimer</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {refunds.map((r) => (
              <tr key={r.id}>
                <td>{formatDay(r.paid_at)}</td>
                <td>Remboursement · {PAYMENT_METHOD_LABELS[r.method]}</td>
                <td>{r.reference ?? <span className="muted">—</span>}</td>
                <td className="num">{formatMoney(r.amount)}</td>
                <td>
                  <DeletePayment payment={r} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="muted">Aucun remboursement enregistré.</p>
      )}
      <RefundForm record={refund} owed={owed} today={today} />
    </section>
  );
}
