import { z } from 'zod';
import { VERIFICATION_METHODS } from '@/db/schema/signature';
import { PageQuery } from '@/lib/platform/http';
import { pageOf, Timestamp, text, wellFormed } from '@/lib/platform/contract';
import { E164 } from './envelope-schemas';
import { EmailAddress, EmailList, LabelList } from './schemas';

const Title = z
  .string({ error: 'required' })
  .trim()
  .min(1, 'must not be blank')
  .max(200, 'at most 200 characters')
  .refine(wellFormed, 'contains an invalid character');

export const SignatureFormCreate = z
  .strictObject({
    title: Title.meta({ description: 'Title of the form’s public page, at most 200 characters.' }),
    source_document_id: z.uuid({ error: 'must be a uuid' }).meta({ description: 'An uploaded PDF (POST /v1/signature/documents) each envelope wraps.' }),
    template_id: z.uuid({ error: 'must be a uuid' }).nullish().meta({ description: 'Its subject, message, labels and copied recipients fill every envelope.' }),
    verification_method: z
      .enum(VERIFICATION_METHODS, { error: 'must be one of email_otp, sms_otp, none' })
      .default('email_otp')
      .meta({ description: 'How the signer proves themselves on the signing page; sms_otp makes the form ask for a phone.' }),
  })
  .meta({ id: 'SignatureFormCreate' });
export type SignatureFormCreate = z.output<typeof SignatureFormCreate>;

export const SignatureFormActive = z
  .strictObject({ active: z.boolean({ error: 'required (true or false)' }).meta({ description: 'true: the form accepts submissions; false: its page refuses them.' }) })
  .meta({ id: 'SignatureFormActive' });

export const SignatureFormListQuery = z.strictObject({
  ...PageQuery.shape,
  active: z.enum(['true', 'false'], { error: 'must be true or false' }).optional().meta({ description: 'true: only active forms; false: only inactive ones.' }),
});
export type SignatureFormListQuery = z.output<typeof SignatureFormListQuery>;

export const SignatureForm = z
  .object({
    id: z.uuid().meta({ description: 'The form’s id.' }),
    slug: z.string().meta({ description: '128-bit random, base62: the public page /sign/forms/{slug}.' }),
    title: z.string().meta({ description: 'Title of the public page.' }),
    source_document_id: z.uuid().meta({ description: 'The PDF each envelope of the form wraps.' }),
    template_id: z.uuid().nullable().meta({ description: 'The template filling each envelope; null when none.' }),
    verification_method: z.enum(VERIFICATION_METHODS).meta({ description: 'How signers prove themselves: email_otp, sms_otp or none.' }),
    active: z.boolean().meta({ description: 'Whether submissions are accepted.' }),
    url: z.string().meta({ description: '{APP_BASE_URL}/sign/forms/{slug}' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'SignatureForm' });
export type SignatureForm = z.infer<typeof SignatureForm>;
export const SignatureFormList = pageOf(SignatureForm, 'SignatureFormList');

/** One recipient of a bulk request, checked on its own: an invalid one is reported in `results`, the others go on. */
export const BulkRecipient = z.strictObject({
  email: EmailAddress,
  full_name: z
    .string({ error: 'required' })
    .trim()
    .min(1, 'must not be blank')
    .max(200, 'at most 200 characters')
    .refine(wellFormed, 'contains an invalid character'),
  phone: E164.nullish(),
});
export type BulkRecipient = z.output<typeof BulkRecipient>;

/** The most recipients one bulk request takes (spec Limits). */
export const MAX_BULK_RECIPIENTS = 100;

export const BulkSend = z
  .strictObject({
    recipients: z
      .array(z.unknown(), { error: 'required (an array of 1 to 100 recipients)' })
      .min(1, 'at least one recipient')
      .max(MAX_BULK_RECIPIENTS, `at most ${MAX_BULK_RECIPIENTS} recipients`)
      // An invalid recipient is reported in results, with its e-mail as given: one that PostgreSQL cannot store (a NUL,
      // a lone surrogate) or a control character is no recipient's mistake but a malformed request, refused whole.
      .superRefine((recipients, ctx) =>
        recipients.forEach((recipient, index) => {
          if (!recipient || typeof recipient !== 'object') return;
          for (const [key, value] of Object.entries(recipient)) {
            if (typeof value === 'string' && !wellFormed(value)) ctx.addIssue({ code: 'custom', path: [index, key], message: 'contains an invalid character' });
          }
        }),
      )
      .meta({
        description: 'Each: email, full_name (required), phone (E.164, required with sms_otp). An invalid recipient is reported in results, the others are sent.',
      }),
    source_document_id: z.uuid({ error: 'must be a uuid' }).meta({ description: 'The uploaded PDF every envelope wraps.' }),
    verification_method: z.enum(['email_otp', 'sms_otp'], { error: 'must be one of email_otp, sms_otp' }).default('email_otp').meta({ description: 'email_otp (default) or sms_otp.' }),
    template_id: z.uuid({ error: 'must be a uuid' }).nullish().meta({ description: 'A template whose presets fill subject, message, labels and cc_recipients left out.' }),
    subject: text(200).meta({ description: 'Subject of the request e-mails; omitted: the template’s, else the default.' }),
    message: text(5000).meta({ description: 'Message quoted in the request e-mails.' }),
    labels: LabelList.optional().meta({ description: 'Labels of every envelope; omitted: the template’s, else none.' }),
    cc_recipients: EmailList.optional().meta({ description: 'Copied on each completion notice; omitted: the template’s, else none.' }),
    expires_at: z.iso.datetime({ offset: true, error: 'must be an RFC 3339 timestamp' }).nullish().meta({ description: 'When every envelope expires (RFC 3339); omitted or null: no expiry.' }),
    reminder_interval_hours: z.number({ error: 'must be an integer' }).int('must be an integer').min(1, 'must be 1 or more').max(8760, 'at most 8760').nullish().meta({ description: 'Hours between automatic reminders (1 to 8760); omitted or null: the default cadence.' }),
    reminder_max_count: z.number({ error: 'must be an integer' }).int('must be an integer').min(0, 'must be 0 or more').max(20, 'at most 20').nullish().meta({ description: 'Most automatic reminders (0 to 20); omitted or null: a single one.' }),
  })
  .meta({ id: 'SignatureBulkSend' });
export type BulkSend = z.output<typeof BulkSend>;

export const BulkSendResult = z
  .object({
    sent_count: z.number().int().meta({ description: 'Recipients whose envelope exists and is sent or queued for sending.' }),
    failed_count: z.number().int().meta({ description: 'Recipients refused, each with its error in results.' }),
    results: z.array(
      z.object({
        email: z.string().nullable().meta({ description: 'As given (null when the recipient had none).' }),
        envelope_id: z.uuid().nullable().meta({ description: 'The recipient’s envelope; null when it failed.' }),
        error: z.string().nullable().meta({ description: 'Why the recipient failed (naming the field); null when sent.' }),
      }),
    ).meta({ description: 'One per recipient, in request order.' }),
  })
  .meta({ id: 'SignatureBulkSendResult' });
export type BulkSendResult = z.infer<typeof BulkSendResult>;
