/**
 * What each tag of the reference covers. Tags come from the operations (`tag`) and the webhooks section; the document
 * lists every tag in use, in the order first used, with its description from here. A module that brings a new tag adds
 * its line (lib/platform/openapi/document.test.ts fails until it does).
 */
export const TAG_DESCRIPTIONS: Readonly<Record<string, string>> = {
  Events: 'The outbox: every change that is delivered by webhook, recorded in the transaction of the change, readable for 30 days and more.',
  Contacts: 'Clients and prospects (particuliers and professionnels): create, import, deduplicate and merge, archive and restore, GDPR export and erasure.',
  Invoices:
    'Quotes (devis), invoices (factures), deposit invoices (acomptes) and credit notes (avoirs): drafts, finalization into the gapless numbering and ' +
    'the hash chain, the quote lifecycle, payments and refunds, online payment and SEPA mandates, PDFs with Factur-X, reminders, sending, figures.',
  'Invoice settings': 'The organisation’s legal mentions, numbering, payment terms and defaults printed on its documents.',
  Products: 'The catalogue of goods and services a document’s lines can start from.',
  Webhooks: 'Endpoints that receive the events, signed per Standard Webhooks, their secrets and their delivery log.',
  'E-invoicing': 'The organisation’s enrollment with its PA (plateforme agréée) and the transmission of its invoices through it.',
  'Inbound invoices': 'Supplier invoices received through the PA: read, download, and answer them (accept, refuse, dispute).',
  'Recurring invoices': 'Templates that issue an invoice every period (and may send it or collect it by SEPA debit), with their generations.',
  Signature:
    'Electronic signature: the PDFs to sign and the templates of envelopes (envelopes, signers, approvers, the audit chain and the proof arrive with issue 18).',
  'Webhook events': 'What each endpoint receives: one POST per event it subscribes to, with the body, headers and an example of each.',
};
