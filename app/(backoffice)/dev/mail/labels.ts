import type { EmailTemplate } from '@/db/schema';
import { formatNumber } from '@/lib/platform/format';

export const TEMPLATE_LABELS: Record<EmailTemplate, string> = {
  document_sent: 'Envoi de document',
  payment_reminder: 'Relance de paiement',
  quote_expiry_reminder: 'Expiration de devis',
  account_locked: 'Compte verrouillé',
  webhook_endpoint_disabled: 'Webhook désactivé',
  signature_request: 'Demande de signature',
  signature_reminder: 'Rappel de signature',
  signature_expired: 'Signature expirée',
  signature_approval_requested: 'Approbation de signature',
  signature_code: 'Code de signature',
  signature_declined: 'Signature refusée',
  signature_completed: 'Document signé',
  signature_seal_failed: 'Échec du scellement',
  payment_receipt: 'Reçu de paiement',
  payment_received: 'Paiement reçu',
  org_invitation: 'Invitation',
};

/** 2048 → "2 Ko". */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} o`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} Ko`;
  return `${formatNumber(bytes / (1024 * 1024), 'fr', { maxDecimals: 1 })} Mo`;
}
