import { IdParams, operation } from '@/lib/platform/contract';
import { DocumentRender, EInvoiceValidation, PdfFile, PdfQuery } from './schemas';

const tag = 'Invoices';

export const renderDocumentOperation = operation({
  method: 'post',
  path: '/v1/invoices/{id}/render',
  tag,
  summary: 'Queue the rendering of a finalized document again',
  description:
    'Finalization queues the render itself (render_status pending → rendering → ready, or failed after bounded retries with ' +
    'back-off). This re-queues it: a failed render starts over with fresh retries; a pending or rendering one whose job no ' +
    'longer runs (its worker died) gets a fresh job, started once the stale claim may be taken over; one whose job is alive ' +
    'is left to it. A stored PDF is never replaced: on a ready document nothing changes.',
  scope: 'invoice:write',
  params: IdParams,
  responses: { 202: { description: 'Queued (or already rendered): the render state.', schema: DocumentRender } },
  errors: [[409, 'not_finalized']],
});

export const getDocumentPdfOperation = operation({
  method: 'get',
  path: '/v1/invoices/{id}/pdf',
  tag,
  summary: 'Download the stored PDF (PDF/A-3 with its Factur-X XML)',
  description:
    'The file rendered at finalization, streamed. Invoices, deposit invoices and credit notes embed factur-x.xml (Factur-X ' +
    'EN 16931); a quote is a plain PDF/A-3. ETag is the SHA-256 of the file: If-None-Match answers 304. Until render_status ' +
    'is ready: 409 pdf_not_ready, the status in the message.',
  scope: 'invoice:read',
  params: IdParams,
  query: PdfQuery,
  responses: {
    200: { description: 'The PDF (Content-Disposition names it after the document number).', schema: PdfFile, contentType: 'application/pdf' },
    304: { description: 'Not modified: the client has this file (If-None-Match).' },
  },
  errors: [[409, 'pdf_not_ready']],
});

export const previewDocumentOperation = operation({
  method: 'get',
  path: '/v1/invoices/{id}/preview',
  tag,
  summary: 'Render the document now, without storing it',
  description:
    'A draft is watermarked BROUILLON (DRAFT in English) and unnumbered, with the seller and buyer as finalizing it would freeze ' +
    'them; a finalized document renders as its stored PDF. Nothing is stored.',
  scope: 'invoice:read',
  params: IdParams,
  query: PdfQuery,
  responses: { 200: { description: 'The PDF.', schema: PdfFile, contentType: 'application/pdf' } },
});

export const validateDocumentOperation = operation({
  method: 'get',
  path: '/v1/invoices/{id}/validation',
  tag,
  summary: "Check the document's Factur-X as a PA would, before finalizing",
  description:
    'Builds the Factur-X EN 16931 XML the document carries (a draft: as finalizing it now would, with the next number and ' +
    "today's dates, nothing taken or stored) and runs the Factur-X XSD and the CEN EN 16931, Factur-X 1.0.9 and French BR-FR " +
    'schematrons. The errors are those POST /finalize refuses with 422 einvoice_invalid.',
  scope: 'invoice:read',
  params: IdParams,
  responses: { 200: { description: 'The rules broken, if any.', schema: EInvoiceValidation } },
});

export const pdfOperations = [renderDocumentOperation, getDocumentPdfOperation, previewDocumentOperation, validateDocumentOperation];
