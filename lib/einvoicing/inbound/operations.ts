import { operation } from '@/lib/openapi/operation';
import { IdParams } from '@/lib/openapi/schemas';
import { PdfFile, PdfQuery } from '@/lib/pdf';
import { InboundInvoice } from '../schemas';
import { AcceptInboundInput, DisputeInboundInput, InboundAnswerResult, InboundInvoicePage, InboundListQuery, RefuseInboundInput } from './schemas';

const tag = 'Inbound invoices';

export const listInboundOperation = operation({
  method: 'get',
  path: '/v1/invoices/inbound',
  tag,
  summary: 'List received invoices, newest first',
  description:
    'Invoices addressed to the org that its PA delivered (fetched every 5 minutes). Filters combine with AND; ' +
    'received_from / received_to are Europe/Paris days of received_at.',
  scope: 'invoice:read',
  query: InboundListQuery,
  responses: { 200: { description: 'A page of received invoices.', schema: InboundInvoicePage } },
  errors: [[422, 'invalid_cursor']],
});

export const getInboundOperation = operation({
  method: 'get',
  path: '/v1/invoices/inbound/{id}',
  tag,
  summary: 'Get a received invoice',
  description: 'The parsed fields. The structured XML and the integrity digest are not exposed.',
  scope: 'invoice:read',
  params: IdParams,
  responses: { 200: { description: 'The received invoice.', schema: InboundInvoice } },
});

export const getInboundPdfOperation = operation({
  method: 'get',
  path: '/v1/invoices/inbound/{id}/pdf',
  tag,
  summary: 'Download the readable PDF of a received invoice',
  description:
    'A Factur-X (or any PDF) received is its own readable PDF, as received; an XML-only flow (CII, UBL) that parsed ' +
    'gets a view rendered with the templates of our invoices (the XML stays the invoice of record). ETag: a ' +
    'validator of the file (If-None-Match answers 304). 409 pdf_not_ready while parse_status is pending; 409 ' +
    'inbound_pdf_unavailable for an XML that could not be read.',
  scope: 'invoice:read',
  params: IdParams,
  query: PdfQuery,
  responses: {
    200: { description: 'The PDF.', schema: PdfFile, contentType: 'application/pdf' },
    304: { description: 'Not modified: the client has this file (If-None-Match).' },
  },
  errors: [
    [409, 'pdf_not_ready'],
    [409, 'inbound_pdf_unavailable'],
  ],
});

const answerErrors: Array<[number, string]> = [
  [409, 'inbound_already_answered'],
  [409, 'einvoicing_not_configured'],
  [502, 'pa_refused'],
  [503, 'pa_unavailable'],
];

const answerDescription = (what: string) =>
  `Extension of the spec. Sends ${what} to the PA as a CDAR lifecycle status issued by the buyer, records it in the ` +
  'lifecycle log. The same answer again returns the first one and sends nothing; once approved or refused, another ' +
  'answer is 409 inbound_already_answered (a dispute may still be settled either way).';

export const acceptInboundOperation = operation({
  method: 'post',
  path: '/v1/invoices/inbound/{id}/accept',
  tag,
  summary: 'Approve a received invoice (205 Approuvée)',
  description: answerDescription('205 Approuvée'),
  scope: 'invoice:write',
  params: IdParams,
  body: AcceptInboundInput,
  responses: { 200: { description: 'The status sent.', schema: InboundAnswerResult } },
  errors: answerErrors,
});

export const refuseInboundOperation = operation({
  method: 'post',
  path: '/v1/invoices/inbound/{id}/refuse',
  tag,
  summary: 'Refuse a received invoice (210 Refusée)',
  description: answerDescription('210 Refusée with its reason code (XP Z12-012 closed list)'),
  scope: 'invoice:write',
  params: IdParams,
  body: RefuseInboundInput,
  responses: { 200: { description: 'The status sent.', schema: InboundAnswerResult } },
  errors: answerErrors,
});

export const disputeInboundOperation = operation({
  method: 'post',
  path: '/v1/invoices/inbound/{id}/dispute',
  tag,
  summary: 'Dispute a received invoice (207 En litige)',
  description: answerDescription('207 En litige with its reason'),
  scope: 'invoice:write',
  params: IdParams,
  body: DisputeInboundInput,
  responses: { 200: { description: 'The status sent.', schema: InboundAnswerResult } },
  errors: answerErrors,
});

export const inboundOperations = [
  listInboundOperation,
  getInboundOperation,
  getInboundPdfOperation,
  acceptInboundOperation,
  refuseInboundOperation,
  disputeInboundOperation,
];

