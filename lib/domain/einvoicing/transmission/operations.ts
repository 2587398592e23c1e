import { BillingDocument } from '@/lib/domain/documents';
import { IdParams, operation } from '@/lib/platform/contract';

export const retryTransmissionOperation = operation({
  method: 'post',
  path: '/v1/invoices/{id}/transmission/retry',
  tag: 'Invoices',
  summary: 'Retry a failed e-invoice transmission (extension)',
  description:
    'An extension of the spec. A finalized invoice, deposit invoice or credit note addressed to a French business goes to the ' +
    "org's PA after its Factur-X is rendered (transmission_status pending → sending → sent with transmission_id, or failed after " +
    'bounded retries; docs/einvoicing.md). This puts a failed one (or one finalized before e-invoicing was enabled) back to ' +
    'pending with fresh attempts. The document keeps one identity at the PA (its tracking id): a flow an earlier attempt created is ' +
    'found and kept, never submitted twice.',
  scope: 'invoice:write',
  params: IdParams,
  responses: { 200: { description: 'The document, transmission_status pending.', schema: BillingDocument } },
  errors: [
    [409, 'transmission_not_failed'],
    [409, 'einvoicing_not_configured'],
    [422, 'einvoicing_not_applicable'],
  ],
});

export const transmissionOperations = [retryTransmissionOperation];
