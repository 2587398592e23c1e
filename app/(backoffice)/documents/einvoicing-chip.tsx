import type { BillingDocument } from '@/lib/domain/documents';
import { transmissionBadge } from './einvoicing-labels';
import { StatusChip } from '@/components/ui';

/**
 * The transmission badge (documents list, document page header): where the invoice stands at the PA — en attente,
 * transmise, its latest lifecycle status —, red when it failed or was rejected (213) or refused (210).
 */
export function EInvoicingChip({ doc }: { doc: Pick<BillingDocument, 'transmission_status' | 'lifecycle_status'> }) {
  const badge = transmissionBadge(doc);
  return badge ? (
    <StatusChip tone={badge.chip} data-testid="transmission-badge" data-alert={badge.alert || undefined} title="Facturation électronique (plateforme agréée)">
      {badge.label}
    </StatusChip>
  ) : null;
}
