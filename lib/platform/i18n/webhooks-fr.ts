/*
 * The back-office's French for webhooks: event groups (the catalogue's owners) and each event, for the event
 * picker and the delivery log. No imports: client components read it.
 */

export const EVENT_GROUP_LABELS: Readonly<Record<string, string>> = {
  contacts: 'Clients',
  documents: 'Devis et factures',
  sending: 'Envois',
  payments: 'Paiements',
  einvoicing: 'Facturation électronique',
  recurring: 'Facturation récurrente',
  signature: 'Signature électronique',
};

export const EVENT_LABELS: Readonly<Record<string, string>> = {
  'contact.created': 'Client créé',
  'contact.updated': 'Client modifié',
  'contact.deleted': 'Client supprimé',
  'contact.restored': 'Client restauré',
  'contact.erased': 'Client effacé (RGPD)',
  'contact.merged': 'Client fusionné',
  'invoice.created': 'Brouillon créé',
  'invoice.updated': 'Document modifié',
  'invoice.finalized': 'Document finalisé',
  'invoice.sent': 'Document envoyé',
  'invoice.paid': 'Facture payée',
  'invoice.cancelled': 'Document annulé',
  'quote.accepted': 'Devis accepté',
  'quote.rejected': 'Devis refusé',
  'quote.expired': 'Devis expiré',
  'quote.converted': 'Devis converti en facture',
  'payment.recorded': 'Paiement enregistré',
  'payment.deleted': 'Paiement supprimé',
  'payment.failed': 'Paiement en ligne échoué',
  'payment.refunded': 'Remboursement',
  'invoice.transmission_updated': 'Transmission de la facture électronique',
  'invoice.lifecycle_updated': 'Cycle de vie de la facture électronique',
  'inbound_invoice.received': 'Facture fournisseur reçue',
  'recurring_invoice.generated': 'Facture récurrente générée',
  'recurring_invoice.failed': 'Facture récurrente en échec',
  'signature.envelope.sent': 'Enveloppe envoyée',
  'signature.envelope.completed': 'Enveloppe signée',
  'signature.envelope.declined': 'Enveloppe refusée',
  'signature.envelope.expired': 'Enveloppe expirée',
  'signature.envelope.cancelled': 'Enveloppe annulée',
  'signature.signer.signed': 'Signataire a signé',
  'signature.signer.declined': 'Signataire a refusé',
  'webhook.test': 'Événement de test',
  '*': 'Tous les événements',
};

export const eventLabel = (token: string) => EVENT_LABELS[token] ?? token;

export const DELIVERY_STATUS_LABELS: Readonly<Record<string, string>> = { pending: 'en cours', succeeded: 'livré', failed: 'échec' };

export const DISABLED_REASON_LABELS: Readonly<Record<string, string>> = {
  gone: 'désactivé : le destinataire a répondu 410 (n’existe plus)',
  failing: 'désactivé : en échec depuis 5 jours',
};
