import { operation } from '@/lib/platform/contract';
import { InvoiceSettings, InvoiceSettingsInput } from './schemas';


export const getSettingsOperation = operation({
  method: 'get',
  path: '/v1/invoice/settings',
  tag: 'Invoice settings',
  summary: "The org's invoice settings",
  description: 'The defaults until they are first saved.',
  scope: 'invoice:read',
  responses: { 200: { description: 'The settings.', schema: InvoiceSettings } },
});

export const putSettingsOperation = operation({
  method: 'put',
  path: '/v1/invoice/settings',
  tag: 'Invoice settings',
  summary: 'Replace the invoice settings',
  scope: 'invoice:write',
  // No body at all is the empty payload: every field takes its default.
  body: InvoiceSettingsInput.prefault({}),
  responses: { 200: { description: 'The saved settings.', schema: InvoiceSettings } },
});

export const invoiceSettingsOperations = [getSettingsOperation, putSettingsOperation];
