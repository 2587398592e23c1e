/**
 * Every event Paraphe emits (DESIGN §5): the token, what it means, and the module that owns it. The owning module
 * supplies the payload schema in its manifest (`events`), so this file depends on no module; `lib/composition/modules.ts`
 * checks that each token of a module it lists has exactly one schema. Outbound webhooks deliver exactly these, but
 * the `internal` ones: a module's announcement to the others (pdf's stored PDF), recorded only as its subscribers'
 * jobs (recordInternalEvent: no outbox row), so never in /v1/events, the OpenAPI `webhooks` or a delivery.
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
  'pdf.document_rendered': {
    owner: 'pdf',
    meaning: 'A finalized document’s PDF (with its Factur-X) was stored: the object names the document and the file.',
    internal: true,
  },
  'pdf.document_render_failed': {
    owner: 'pdf',
    meaning: 'A finalized document’s render failed on its last attempt: no PDF is stored until a new render is asked for.',
    internal: true,
  },
} as const satisfies Record<string, { owner: string; meaning: string; internal?: true }>;

type Catalogue = typeof EVENT_CATALOGUE;
/** Every catalogued token, internal ones included: what a payload schema and a subscription name. */
export type CataloguedEventType = keyof Catalogue;
/** The tokens modules announce to each other only (never stored in the outbox, never delivered). */
export type InternalEventType = { [K in CataloguedEventType]: Catalogue[K] extends { internal: true } ? K : never }[CataloguedEventType];
/** The public tokens: the outbox, /v1/events, the OpenAPI `webhooks` and the webhook deliveries. */
export type EventType = Exclude<CataloguedEventType, InternalEventType>;
const isInternal = (type: CataloguedEventType) => 'internal' in EVENT_CATALOGUE[type];
export const EVENT_TYPES = (Object.keys(EVENT_CATALOGUE) as CataloguedEventType[]).filter((t): t is EventType => !isInternal(t));
export const INTERNAL_EVENT_TYPES = (Object.keys(EVENT_CATALOGUE) as CataloguedEventType[]).filter((t): t is InternalEventType => isInternal(t));

/**
 * The tokens whose module is not built yet: catalogued (integrators can subscribe to them) but emitted by nothing.
 * lib/platform/events/catalogue-walk.test.ts fails when one of these modules is installed while its tokens are still listed
 * here, and when a token not listed here has no step emitting it; the OpenAPI `webhooks` section marks them from this
 * list. A module that arrives removes its tokens from it.
 */
export const NOT_EMITTED_YET: readonly EventType[] = [];

/** A public token (what a webhook endpoint may subscribe to, what the outbox holds). */
export function isEventType(type: string): type is EventType {
  return Object.hasOwn(EVENT_CATALOGUE, type) && !isInternal(type as CataloguedEventType);
}

export function isInternalEventType(type: string): type is InternalEventType {
  return Object.hasOwn(EVENT_CATALOGUE, type) && isInternal(type as CataloguedEventType);
}
