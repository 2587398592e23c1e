import { DataTable, StatusChip } from '@/components/ui';
import type { OnlineRefund } from '@/lib/domain/payments';
import { formatInstant } from '@/lib/platform/format';

const STATUS: Record<OnlineRefund['status'], [string, string]> = {
  pending: ['en cours', 'chip-amber'],
  requires_action: ['action requise sur Stripe', 'chip-amber'],
  succeeded: ['remboursé', 'chip-green'],
  failed: ['échoué', 'chip-red'],
  canceled: ['annulé', 'chip-grey'],
};

/** The card network's reasons (Refund.failure_reason); a refusal of Stripe itself is said as such (its text is English). */
const FAILURES: Record<string, string> = {
  lost_or_stolen_card: 'carte perdue ou volée',
  expired_or_canceled_card: 'carte expirée ou annulée',
  unknown: 'raison non communiquée',
};

/** What became of each refund through Stripe: pending until Stripe confirms it, then counted; a failure counts nothing. */
export function OnlineRefunds({ refunds }: { refunds: OnlineRefund[] }) {
  if (!refunds.length) return null;
  return (
    <DataTable
      label="Remboursements par carte"
      style={{ marginTop: 12 }}
      columns={[
        { key: 'created_at', header: 'Demandé le', cell: (r) => formatInstant(r.created_at) },
        {
          key: 'status',
          header: 'État',
          cell: (r) => (
            <>
              <StatusChip tone={STATUS[r.status][1]} data-testid="online-refund-status">
                {STATUS[r.status][0]}
              </StatusChip>
              {r.status === 'failed' && <span className="muted"> : {FAILURES[r.failure_reason ?? 'unknown'] ?? 'refusé par Stripe'}, rien n’a été compté</span>}
              {r.origin === 'provider' && <span className="muted"> (fait sur Stripe)</span>}
            </>
          ),
        },
        { key: 'amount', header: 'Montant', money: (r) => r.amount },
      ]}
      rows={refunds}
      rowKey={(r) => r.id}
    />
  );
}
