import type { z } from 'zod';
import { IdParams, operation } from '@/lib/platform/contract';
import { PdfFile, PdfQuery } from '@/lib/domain/pdf';
import { InboundInvoice } from '../schemas';
import { AcceptInboundInput, DisputeInboundInput, InboundAnswerResult, InboundInvoicePage, InboundListQuery, RefuseInboundInput } from './schemas';

const tag = 'Inbound invoices';

export const listInboundOperation = operation({
  method: 'get',
  path: '/v1/invoices/inbound',
  operationId: 'listInboundInvoices',
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
  operationId: 'getInboundInvoice',
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
  operationId: 'getInboundInvoicePdf',
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

/** POST /v1/invoices/inbound/{id}/{verb}: an answer sent to the PA (an extension of the spec). */
const answerOperation = <B extends z.ZodType>(verb: string, status: string, what: string, body: B) =>
  operation({
    method: 'post',
    path: `/v1/invoices/inbound/{id}/${verb}`,
    operationId: `${verb}InboundInvoice`,
    tag,
    summary: `${what} a received invoice (${status})`,
    description:
      `Extension of the spec. Sends ${status} to the PA as a CDAR lifecycle status issued by the buyer, records it in ` +
      'the lifecycle log. The same answer again returns the first one and sends nothing; once approved or refused, ' +
      'another answer is 409 inbound_already_answered (a dispute may still be settled either way).',
    scope: 'invoice:write',
    params: IdParams,
    body,
    responses: { 200: { description: 'The status sent.', schema: InboundAnswerResult } },
    errors: [
      [409, 'inbound_already_answered'],
      [409, 'einvoicing_not_configured'],
      [502, 'pa_refused'],
      [503, 'pa_unavailable'],
    ],
  });

export const acceptInboundOperation = answerOperation('accept', '205 Approuvée', 'Approve', AcceptInboundInput);
export const refuseInboundOperation = answerOperation('refuse', '210 Refusée, with a reason code of XP Z12-012’s closed list', 'Refuse', RefuseInboundInput);
export const disputeInboundOperation = answerOperation('dispute', '207 En litige, with its reason', 'Dispute', DisputeInboundInput);

export const inboundOperations = [
  listInboundOperation,
  getInboundOperation,
  getInboundPdfOperation,
  acceptInboundOperation,
  refuseInboundOperation,
  disputeInboundOperation,
];

