import type { BillingDocument } from '@/lib/domain/documents';
import { einvoicingAlert } from './einvoicing-labels';
import { StatusChip } from '@/components/ui';

/** In the documents list: a failed transmission, or an invoice rejected (213) or refused (210), at a glance. */
export function EInvoicingChip({ doc }: { doc: Pick<BillingDocument, 'transmission_status' | 'lifecycle_status'> }) {
  const alert = einvoicingAlert(doc);
  return alert ? (
    <StatusChip tone={alert.chip} data-testid="einvoicing-alert">
      {alert.label}
    </StatusChip>
  ) : null;
}
