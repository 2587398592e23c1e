import { z } from 'zod';
import { DOCUMENT_TYPES, RENDER_STATUSES } from '@/db/schema/billing';
import { ErrorBody, Timestamp } from '@/lib/platform/contract';

export const DocumentRender = z
  .object({
    document_id: z.uuid().meta({ description: 'The document concerned.' }),
    render_status: z.enum(RENDER_STATUSES).meta({ description: 'pending → rendering → ready, or failed after the last retry.' }),
    attempts: z.number().int().meta({ description: 'Render attempts so far.' }),
    rendered_at: Timestamp.nullable().meta({ description: 'When the stored PDF was made; null until ready.' }),
    size: z.number().int().nullable().meta({ description: 'Bytes of the stored PDF.' }),
    sha256: z.string().nullable().meta({ description: 'Lowercase hex SHA-256 of the stored PDF (its ETag).' }),
    facturx_profile: z.string().nullable().meta({ description: 'Conformance level of the embedded Factur-X XML ("EN 16931"); null for a quote.' }),
  })
  .meta({ id: 'DocumentRender', description: 'Where the rendering of a finalized document stands.' });
export type DocumentRender = z.infer<typeof DocumentRender>;

/** What pdf's internal events (lib/platform/events/catalogue.ts) carry: the document as documents froze it. */
const RenderedDocumentFields = {
  document_id: z.uuid(),
  type: z.enum(DOCUMENT_TYPES),
  number: z.string().nullable(),
  /** Documents' frozen decision that it goes to the PA: a subscriber filters on it without reading the document. */
  transmission_required: z.boolean(),
};

/** `pdf.document_rendered`: the PDF of a finalized document is stored, once (the first stored PDF stays the PDF). */
export const DocumentRendered = z.object({
  ...RenderedDocumentFields,
  sha256: z.string(),
  size: z.number().int(),
  facturx_profile: z.string().nullable(),
});
export type DocumentRendered = z.infer<typeof DocumentRendered>;

/** `pdf.document_render_failed`: the last attempt failed (render_status failed) with this error. */
export const DocumentRenderFailed = z.object({ ...RenderedDocumentFields, error: z.string() });
export type DocumentRenderFailed = z.infer<typeof DocumentRenderFailed>;

export const EInvoiceValidation = z
  .object({
    document_id: z.uuid().meta({ description: 'The document concerned.' }),
    einvoice: z.boolean().meta({ description: 'False for a quote, which has no e-invoice (then valid is true and errors empty).' }),
    valid: z.boolean().meta({ description: 'True when the Factur-X passes the XSD and the three schematrons: finalizing will not be refused for it.' }),
    errors: ErrorBody.shape.errors.unwrap().meta({ description: 'Every rule broken, as POST /finalize would list them in its 422 einvoice_invalid.' }),
  })
  .meta({ id: 'EInvoiceValidation', description: "The checks a PA runs on the document's Factur-X: XSD, CEN EN 16931, Factur-X 1.0.9, BR-FR." });

const flag = z
  .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1')
  .optional();

export const PdfQuery = z.strictObject({
  download: flag.meta({ description: 'true: Content-Disposition attachment (save) instead of inline (view).' }),
});

/** A PDF body, in the OpenAPI document. */
export const PdfFile = z.string().meta({ id: 'PdfFile', format: 'binary', description: 'application/pdf' });
