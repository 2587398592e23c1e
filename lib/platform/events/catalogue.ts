/**
 * Every event Paraphe emits (DESIGN §5): the token, what it means, and the module that owns it. The owning module
 * supplies the payload schema in its manifest (`events`), so this file depends on no module; `lib/composition/modules.ts`
 * checks that each token of a module it lists has exactly one schema. Outbound webhooks deliver exactly these.
 */
export const EVENT_CATALOGUE = {
  'contact.created': { owner: 'contacts', meaning: 'A contact was created (one event per row of an import).' },
  'contact.updated': { owner: 'contacts', meaning: 'A contact was changed (also the target of a merge).' },
  'contact.deleted': { owner: 'contacts', meaning: 'A contact was archived (soft-deleted); it can be restored.' },
  'contact.restored': { owner: 'contacts', meaning: 'An archived contact was restored.' },
  'contact.erased': { owner: 'contacts', meaning: 'A contact was erased (GDPR art. 17): the object is its tombstone.' },
  'contact.merged': { owner: 'contacts', meaning: 'A contact was merged into another (merged_into_id names the target).' },
  'invoice.created': { owner: 'documents', meaning: 'A draft document (devis, facture, acompte, avoir) was created.' },
  'invoice.updated': { owner: 'documents', meaning: 'A document changed: a draft edited, or a payment changed its balance or status.' },
  'invoice.finalized': { owner: 'documents', meaning: 'A document was numbered, chained and frozen; its PDF is being rendered.' },
  'invoice.sent': { owner: 'sending', meaning: 'A document was e-mailed to its client.' },
  'invoice.paid': { owner: 'payments', meaning: 'An invoice or deposit is fully paid.' },
  'invoice.cancelled': { owner: 'documents', meaning: 'A document was cancelled (a finalized invoice is offset by a credit note).' },
  'quote.accepted': { owner: 'documents', meaning: 'A quote was accepted by the client.' },
  'quote.rejected': { owner: 'documents', meaning: 'A quote was rejected by the client.' },
  'quote.expired': { owner: 'documents', meaning: 'A quote passed its validity date without an answer.' },
  'quote.converted': { owner: 'documents', meaning: 'An accepted quote was converted into its final invoice (the object is the invoice).' },
  'payment.recorded': { owner: 'payments', meaning: 'A payment was recorded against an invoice or deposit.' },
  'payment.deleted': { owner: 'payments', meaning: 'A recorded payment was deleted.' },
  'payment.failed': { owner: 'payments', meaning: 'An online payment failed (declined, or a SEPA debit returned): the invoice stays unpaid.' },
  'payment.refunded': { owner: 'payments', meaning: 'Money was refunded: the object is the refund, a payment with a negative amount.' },
  'invoice.transmission_updated': { owner: 'einvoicing', meaning: 'The transmission of an e-invoice to the PA changed status.' },
  'invoice.lifecycle_updated': { owner: 'einvoicing', meaning: 'The PA reported a new lifecycle status of an e-invoice.' },
  'inbound_invoice.received': { owner: 'einvoicing', meaning: 'A supplier invoice arrived through the PA.' },
  'recurring_invoice.generated': { owner: 'recurring', meaning: 'A recurring schedule generated an invoice.' },
  'recurring_invoice.failed': {
    owner: 'recurring',
    meaning: 'A recurring template could not generate, send or debit an invoice: the object is the generation with its reason.',
  },
  'signature.envelope.sent': { owner: 'signature', meaning: 'An envelope was sent to its signers.' },
  'signature.envelope.completed': { owner: 'signature', meaning: 'Every signer signed: the signed document and its proof are ready.' },
  'signature.envelope.declined': { owner: 'signature', meaning: 'A signer declined: the envelope is closed.' },
  'signature.envelope.expired': { owner: 'signature', meaning: 'An envelope passed its expiry date unsigned.' },
  'signature.envelope.cancelled': { owner: 'signature', meaning: 'The sender cancelled an envelope.' },
  'signature.signer.signed': { owner: 'signature', meaning: 'One signer signed.' },
  'signature.signer.declined': { owner: 'signature', meaning: 'One signer declined.' },
} as const satisfies Record<string, { owner: string; meaning: string }>;

export type EventType = keyof typeof EVENT_CATALOGUE;
export const EVENT_TYPES = Object.keys(EVENT_CATALOGUE) as EventType[];

/**
 * The tokens whose module is not built yet: catalogued (integrators can subscribe to them) but emitted by nothing.
 * lib/platform/events/catalogue-walk.test.ts fails when one of these modules is installed while its tokens are still listed
 * here, and when a token not listed here has no step emitting it; the OpenAPI `webhooks` section marks them from this
 * list. A module that arrives removes its tokens from it.
 */
export const NOT_EMITTED_YET: readonly EventType[] = [];

export function isEventType(type: string): type is EventType {
  return Object.hasOwn(EVENT_CATALOGUE, type);
}
