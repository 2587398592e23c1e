import { z } from 'zod';
import { PageQuery } from '@/lib/platform/http';
import { EmailAddress, pageOf, Timestamp, text, wellFormed } from '@/lib/platform/contract';

/** The largest PDF `POST /v1/signature/documents` keeps (DESIGN §12: 20 MB). */
export const MAX_PDF_BYTES = 20 * 1024 * 1024;

export const NoQuery = z.strictObject({});
export const SignatureListQuery = z.strictObject(PageQuery.shape);

export const SignatureDocument = z
  .object({
    id: z.uuid().meta({ description: 'The uploaded document’s id.' }),
    name: z.string().meta({ description: 'The uploaded file name.' }),
    byte_size: z.number().int().meta({ description: 'Size of the PDF in bytes.' }),
    page_count: z.number().int().meta({ description: 'Pages of the PDF.' }),
    sha256: z.string().meta({ description: 'SHA-256 (lowercase hex) of the PDF as stored.' }),
    created_at: Timestamp,
  })
  .meta({ id: 'SignatureDocument' });
export type SignatureDocument = z.infer<typeof SignatureDocument>;

export const SignatureDocumentBody = z
  .strictObject({
    file: z.file({ error: 'required (a PDF file in the multipart field file)' }).meta({ description: 'The PDF, at most 20 MB, not encrypted.' }),
  })
  .meta({ id: 'SignatureDocumentUpload' });

export const Label = z
  .string({ error: 'must be a string' })
  .trim()
  .min(1, 'must not be blank')
  .max(100, 'at most 100 characters')
  .refine(wellFormed, 'contains an invalid character');

/** The shared e-mail field (lib/platform/contract): RFC 5321's lengths included. */
export { EmailAddress };

/** Labels: non-blank, deduplicated, at most 50. */
export const LabelList = z
  .array(Label, { error: 'must be an array of strings' })
  .transform((list) => [...new Set(list)])
  .pipe(z.array(z.string()).max(50, 'at most 50 distinct tags'));

/** Copied recipients: e-mail addresses, lower-cased, deduplicated, at most 50. */
export const EmailList = z
  .array(EmailAddress, { error: 'must be an array of e-mail addresses' })
  .max(50, 'at most 50 addresses')
  .transform((list) => [...new Set(list)]);

export const SignatureTemplate = z
  .object({
    id: z.uuid().meta({ description: 'The template’s id.' }),
    name: z.string().meta({ description: 'The template’s name.' }),
    subject: z.string().nullable().meta({ description: 'Subject of the signature request e-mail.' }),
    message: z.string().nullable().meta({ description: 'Message of the signature request e-mail.' }),
    labels: z.array(z.string()).meta({ description: 'Labels given to its envelopes.' }),
    cc_recipients: z.array(z.string()).meta({ description: 'Copied on the completion notification.' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'SignatureTemplate' });
export type SignatureTemplate = z.infer<typeof SignatureTemplate>;

export const SignatureTemplateCreate = z
  .strictObject({
    name: z
      .string({ error: 'required' })
      .trim()
      .min(1, 'must not be blank')
      .max(200, 'at most 200 characters')
      .refine(wellFormed, 'contains an invalid character')
      .meta({ description: 'The template’s name, at most 200 characters.' }),
    subject: text(200).meta({ description: 'Subject of the request e-mail, at most 200 characters.' }),
    message: text(5000).meta({ description: 'Message quoted in the request e-mail, at most 5000 characters.' }),
    labels: LabelList.default([]).meta({ description: 'Labels given to its envelopes; none when omitted.' }),
    cc_recipients: EmailList.default([]).meta({ description: 'Copied on the completion notice; none when omitted.' }),
  })
  .meta({ id: 'SignatureTemplateCreate' });
export type SignatureTemplateCreate = z.output<typeof SignatureTemplateCreate>;

export const SignatureTemplateList = pageOf(SignatureTemplate, 'SignatureTemplateList');
