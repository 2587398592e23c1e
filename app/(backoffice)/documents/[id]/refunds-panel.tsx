import type { OnlineRefund, Payment } from '@/lib/domain/payments';
import { formatMoney } from '@/lib/platform/format';
import type { BoundFormAction } from '@/lib/platform/next';
import { OnlineRefunds } from './online-refunds';
import { PaymentsTable } from './payments-panel';
import { RefundForm, type RefundView } from './refund-form';

interface Props {
  /** The refunds recorded on this credit note (negative amounts), each with its deletion bound on the server. */
  refunds: Array<Payment & { remove: BoundFormAction }>;
  /** The card refunds of the credited invoice, with their status at Stripe. */
  online: OnlineRefund[];
  /** What the client of the credited invoice may still be given back, and the two ways (bound to that invoice). */
  view: RefundView;
  today: string;
}

/** A finalized credit note's refunds: the money paid back to the client for it, and the forms for what is still owed. */
export function RefundsPanel({ refunds, online, view, today }: Props) {
  const total = refunds.reduce((sum, r) => sum + r.amount, 0);
  return (
    <section className="card" aria-label="Remboursements" id="remboursements">
      <h2>Remboursements</h2>
      <dl className="props" data-testid="refunds-balance">
        <dt>Déjà remboursé</dt>
        <dd data-testid="refunded">{formatMoney(-total)}</dd>
        {view.pending > 0 && (
          <>
            <dt>Remboursement par carte en cours</dt>
            <dd data-testid="refund-pending">{formatMoney(view.pending)}</dd>
          </>
        )}
        <dt>Reste à rembourser</dt>
        <dd data-testid="refundable">
          <strong>{formatMoney(view.refundable)}</strong>
        </dd>
      </dl>
      <OnlineRefunds refunds={online} />
      <PaymentsTable label="Remboursements effectués" dateHeader="Remboursé le" rows={refunds} empty="Aucun remboursement enregistré." />
      <RefundForm view={view} today={today} />
    </section>
  );
}
