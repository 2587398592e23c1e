import { IdParams, operation, pageOf } from '@/lib/platform/contract';
import { BillingDocument, ChainState, ChainVerification, ConvertQuery, CreditNoteBody, DepositBody, DocumentCreate, DocumentFlow, DocumentListQuery, DocumentPatch } from './schemas';

const tag = 'Invoices';
const doc = (description: string) => ({ description, schema: BillingDocument });

export const listDocumentsOperation = operation({
  method: 'get',
  path: '/v1/invoices',
  tag,
  summary: 'List billing documents, newest first',
  description: 'Quotes, invoices, deposit invoices and credit notes; items are omitted. Filters combine with AND.',
  scope: 'invoice:read',
  query: DocumentListQuery,
  responses: { 200: { description: 'A page of documents.', schema: pageOf(BillingDocument, 'BillingDocumentPage') } },
  errors: [[422, 'invalid_cursor']],
});

export const createDocumentOperation = operation({
  method: 'post',
  path: '/v1/invoices',
  tag,
  summary: 'Create a draft quote (devis) or invoice (facture)',
  description: 'Totals are computed per EN 16931 (docs/billing.md). The draft has no number until it is finalized.',
  scope: 'invoice:write',
  body: DocumentCreate,
  responses: { 201: doc('The created draft, with its items.') },
});

export const getDocumentOperation = operation({
  method: 'get',
  path: '/v1/invoices/{id}',
  tag,
  summary: 'Retrieve a billing document with its items',
  scope: 'invoice:read',
  params: IdParams,
  responses: { 200: doc('The document.') },
});

export const updateDocumentOperation = operation({
  method: 'patch',
  path: '/v1/invoices/{id}',
  tag,
  summary: 'Update a draft',
  description: 'Only a draft changes (409 document_finalized otherwise). items, when given, replace every line.',
  scope: 'invoice:write',
  params: IdParams,
  body: DocumentPatch,
  responses: { 200: doc('The updated draft.') },
  errors: [[409, 'document_finalized']],
});

export const deleteDocumentOperation = operation({
  method: 'delete',
  path: '/v1/invoices/{id}',
  tag,
  summary: 'Delete a draft',
  description: 'Only a draft disappears (409 document_finalized otherwise): a numbered document is cancelled or credited instead.',
  scope: 'invoice:write',
  params: IdParams,
  responses: { 204: { description: 'Deleted.' } },
  errors: [[409, 'document_finalized']],
});

export const finalizeDocumentOperation = operation({
  method: 'post',
  path: '/v1/invoices/{id}/finalize',
  tag,
  summary: 'Finalize a draft: number, snapshots, hash chain',
  description:
    'In one transaction: the next number {prefix}-{YYYY}-{00001} of its (type, year) series, issue_date moved to today (Europe/Paris) ' +
    'when past with due and validity dates keeping their offsets, client and seller snapshots frozen, content_hash chained to the ' +
    "org's previous finalized document. The document is immutable afterwards. An invoice, deposit invoice or credit note is sealed " +
    'only if its Factur-X passes the XSD and the CEN EN 16931, Factur-X 1.0.9 and BR-FR schematrons, else 422 einvoice_invalid ' +
    'lists every rule broken in `errors` (rule, message, field, layer) and nothing changes: GET /v1/invoices/{id}/validation ' +
    'gives the same list beforehand.',
  scope: 'invoice:write',
  params: IdParams,
  responses: { 200: doc('The finalized document, with its items.') },
  errors: [
    [409, 'already_finalized'],
    [409, 'invalid_transition'],
    // A deposit invoice of a quote converted meanwhile (lib/domain/documents/allowed-actions.ts).
    [409, 'not_convertible'],
    [422, 'validation_error'],
    [422, 'einvoice_invalid'],
  ],
});

export const cancelDocumentOperation = operation({
  method: 'post',
  path: '/v1/invoices/{id}/cancel',
  tag,
  summary: 'Cancel a document',
  description:
    'From any non-terminal status. A finalized invoice or deposit invoice is offset by a full credit note, issued and finalized in ' +
    'the same transaction (see its flow).',
  scope: 'invoice:write',
  params: IdParams,
  responses: { 200: doc('The cancelled document.') },
  errors: [
    [409, 'not_cancellable'],
    [409, 'credit_note_exists'],
    // The offsetting credit note is finalized like any document (its e-invoice checked before it is sealed).
    [422, 'einvoice_invalid'],
  ],
});

export const duplicateDocumentOperation = operation({
  method: 'post',
  path: '/v1/invoices/{id}/duplicate',
  tag,
  summary: 'Duplicate a quote or an invoice into a new draft',
  description: 'Same client, lines and mentions, dated today. Deposit invoices and credit notes are not duplicated.',
  scope: 'invoice:write',
  params: IdParams,
  responses: { 201: doc('The new draft.') },
  errors: [[409, 'not_duplicable']],
});

export const acceptQuoteOperation = operation({
  method: 'post',
  path: '/v1/invoices/{id}/accept',
  tag,
  summary: 'Record the acceptance of a quote',
  description: 'A finalized or sent quote within its validity becomes accepted.',
  scope: 'invoice:write',
  params: IdParams,
  responses: { 200: doc('The accepted quote.') },
  errors: [
    [409, 'not_finalized'],
    [409, 'invalid_transition'],
  ],
});

export const rejectQuoteOperation = operation({
  method: 'post',
  path: '/v1/invoices/{id}/reject',
  tag,
  summary: 'Record the rejection of a quote',
  description: 'A finalized or sent quote within its validity becomes rejected.',
  scope: 'invoice:write',
  params: IdParams,
  responses: { 200: doc('The rejected quote.') },
  errors: [
    [409, 'not_finalized'],
    [409, 'invalid_transition'],
  ],
});

export const createDepositOperation = operation({
  method: 'post',
  path: '/v1/invoices/{id}/deposit',
  tag,
  summary: 'Create a draft deposit invoice (acompte) from a quote',
  description:
    'One line per VAT group of the quote: the percentage of the group base, rounded half up. The deposits of a quote may not exceed 100 %.',
  scope: 'invoice:write',
  params: IdParams,
  body: DepositBody.default({}),
  responses: { 201: doc('The draft deposit invoice.') },
  errors: [[409, 'not_convertible']],
});

export const createCreditNoteOperation = operation({
  method: 'post',
  path: '/v1/invoices/{id}/credit-note',
  tag,
  summary: 'Create the draft credit note (avoir) of an invoice',
  description:
    'At most one live credit note per invoice or deposit invoice. Without items it credits every line; with items, at most what the ' +
    'invoice billed in each VAT group.',
  scope: 'invoice:write',
  params: IdParams,
  body: CreditNoteBody,
  responses: { 201: doc('The draft credit note.') },
  errors: [
    [409, 'credit_note_exists'],
    [409, 'not_finalized'],
    [409, 'not_creditable'],
  ],
});

export const convertToFactureOperation = operation({
  method: 'post',
  path: '/v1/invoices/{id}/convert-to-facture',
  tag,
  summary: 'Convert a quote into a draft invoice',
  description:
    'The quote lines, minus one discount line per VAT group of every deposit invoice already issued on the quote. The quote is unchanged. ' +
    'dry_run=true answers the predicted invoice (its id is not stored) and writes nothing.',
  scope: 'invoice:write',
  params: IdParams,
  query: ConvertQuery,
  responses: { 200: doc('With dry_run=true: the invoice the conversion would create.'), 201: doc('The created draft invoice.') },
  errors: [[409, 'not_convertible']],
});

export const documentFlowOperation = operation({
  method: 'get',
  path: '/v1/invoices/{id}/flow',
  tag,
  summary: "A document's family and history",
  scope: 'invoice:read',
  params: IdParams,
  responses: { 200: { description: 'The flow.', schema: DocumentFlow } },
});

export const chainStateOperation = operation({
  method: 'get',
  path: '/v1/invoices/chain',
  tag,
  summary: "The head of the org's hash chain",
  description:
    'Length, last hash and last successful verification. Each finalized document carries its chain_index, content_hash and prev_hash: ' +
    'an auditor who holds documents up to index n detects any deletion from the end (docs/hash-chain.md).',
  scope: 'invoice:read',
  responses: { 200: { description: 'The chain head.', schema: ChainState } },
});

export const verifyChainOperation = operation({
  method: 'post',
  path: '/v1/invoices/chain/verify',
  tag,
  summary: 'Recompute the whole hash chain and report the first broken link',
  description: 'The verifier of `chain:verify`, run now over every finalized document in chain order. Read access is enough: it changes no document.',
  scope: 'invoice:read',
  responses: { 200: { description: 'The report.', schema: ChainVerification } },
});

export const documentOperations = [chainStateOperation, verifyChainOperation, listDocumentsOperation, createDocumentOperation, getDocumentOperation, updateDocumentOperation, deleteDocumentOperation, finalizeDocumentOperation, cancelDocumentOperation, duplicateDocumentOperation, acceptQuoteOperation, rejectQuoteOperation, createDepositOperation, createCreditNoteOperation, convertToFactureOperation, documentFlowOperation];
