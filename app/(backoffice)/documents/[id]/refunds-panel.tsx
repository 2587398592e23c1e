import type { Payment } from '@/lib/domain/payments';
import { formatMoney } from '@/lib/platform/format';
import type { BoundFormAction } from '@/lib/platform/next';
import { PaymentsTable } from './payments-panel';
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
      <PaymentsTable label="Remboursements effectués" dateHeader="Remboursé le" rows={refunds} empty="Aucun remboursement enregistré." />
      <RefundForm record={refund} owed={owed} today={today} />
    </section>
  );
}
