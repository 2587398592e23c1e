import { IdParams, operation } from '@/lib/platform/contract';
import { SepaMandateSetup, SepaMandateStatus } from './mandate-schemas';

const tag = 'Invoices';

export const getSepaMandateOperation = operation({
  method: 'get',
  path: '/v1/invoices/{id}/sepa-mandate',
  tag,
  summary: "The SEPA mandate state of the invoice's buyer contact",
  description: 'active true (status "active") when the contact has an active SEPA direct-debit mandate; else active false, status null.',
  scope: 'invoice:read',
  params: IdParams,
  responses: { 200: { description: 'The mandate status.', schema: SepaMandateStatus } },
});

export const revokeSepaMandateOperation = operation({
  method: 'delete',
  path: '/v1/invoices/{id}/sepa-mandate',
  tag,
  summary: "Revoke the SEPA mandate of the invoice's buyer contact",
  description:
    'Detaches the payment method at the provider (no further debit is possible) and marks the mandate revoked. Idempotent: ' +
    'without a mandate, or again, the answer is the same {active: false, status: null}.',
  scope: 'invoice:write',
  params: IdParams,
  responses: { 200: { description: 'The mandate status after revocation.', schema: SepaMandateStatus } },
  errors: [[503, 'payments_disabled']],
});

export const setupSepaMandateOperation = operation({
  method: 'post',
  path: '/v1/invoices/{id}/sepa-mandate-setup',
  tag,
  summary: 'Open a SEPA mandate setup for the invoice\'s buyer contact',
  description:
    "No body. A hosted, setup-mode checkout on the org's account (SEPA debit, euro) where the payer authorizes a mandate; " +
    'the contact gets a customer at the provider on first use. The mandate becomes active from the provider\'s events; a ' +
    'new mandate replaces the previous one. The payer returns to {APP_BASE_URL}/pay/mandate.',
  scope: 'invoice:write',
  params: IdParams,
  responses: { 200: { description: 'The page to send the payer to.', schema: SepaMandateSetup } },
  errors: [
    [503, 'payments_disabled'],
    [409, 'payments_account_required'],
    [409, 'contact_deleted'],
    [409, 'contact_erased'],
  ],
});

export const mandateOperations = [getSepaMandateOperation, revokeSepaMandateOperation, setupSepaMandateOperation];
