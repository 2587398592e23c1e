import { z } from 'zod';
import { ENROLLMENT_STATUSES, INBOUND_PARSE_STATUSES } from '@/db/schema';
import { isValidSiren, isValidSiret } from '@/lib/platform/identifiers';
import { IsoDate, nullableString, Timestamp } from '@/lib/platform/contract';

/** DESIGN §11: the org's directory enrollment through its PA. */
export const Enrollment = z
  .object({
    status: z.enum(ENROLLMENT_STATUSES).meta({ description: 'not_enrolled, pending (the PA has not confirmed), enrolled or failed.' }),
    siren: nullableString.meta({ description: 'The SIREN enrolled; null before any request.' }),
    siret: nullableString.meta({ description: 'The SIRET when enrolled at that level; null otherwise.' }),
    routing_code: nullableString.meta({ description: 'The routing code when enrolled at that level; null otherwise.' }),
    electronic_address: nullableString.meta({ description: '`0225:<SIREN>` (ISO 6523 ICD 0225), or with the SIRET / routing code when enrolled at that level.' }),
    reason: nullableString.meta({ description: 'Why the PA refused (failed), else null.' }),
    requested_at: Timestamp.nullable().meta({ description: 'When enrollment was asked; null before.' }),
    enrolled_at: Timestamp.nullable().meta({ description: 'When the PA confirmed; null until then.' }),
  })
  .meta({ id: 'EinvoicingEnrollment', description: 'The org’s line in the e-invoicing directory, through its PA.' });
export type Enrollment = z.infer<typeof Enrollment>;

const blankToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);

export const EnrollmentInput = z
  .strictObject(
    {
      siren: z
        .preprocess(blankToNull, z.string({ error: 'must be a string' }).trim().refine(isValidSiren, { error: 'must be a SIREN: 9 digits with a valid check digit (Luhn)' }).nullish())
        .meta({ description: 'Default: the org’s legal SIREN.' }),
      siret: z
        .preprocess(blankToNull, z.string({ error: 'must be a string' }).trim().refine(isValidSiret, { error: 'must be a SIRET: 14 digits with a valid check digit (Luhn)' }).nullish())
        .meta({ description: 'Default: the org’s legal SIRET. Must belong to the SIREN.' }),
      routing_code: z
        .preprocess(
          blankToNull,
          z
            .string({ error: 'must be a string' })
            .trim()
            .regex(/^[-_/a-zA-Z0-9]{1,100}$/, { error: 'must be 1 to 100 characters among A-Z a-z 0-9 - _ /' })
            .nullish(),
        )
        .meta({ description: 'Optional routing code (service code) under the SIRET.' }),
    },
    { error: 'must be an object' },
  )
  .superRefine((v, ctx) => {
    if (v.siren && v.siret && !v.siret.startsWith(v.siren)) ctx.addIssue({ code: 'custom', path: ['siret'], message: 'must belong to the SIREN (start with its 9 digits)' });
  })
  .meta({ id: 'EinvoicingEnrollmentInput', description: 'Every field optional: the org’s legal identity fills what is omitted.' });
export type EnrollmentInput = z.output<typeof EnrollmentInput>;

/** The API's Inbound invoice (spec): the structured XML and the integrity digest are not exposed. */
export const InboundInvoice = z
  .object({
    id: z.uuid().meta({ description: 'The inbound invoice’s id.' }),
    transmission_id: z.string().meta({ description: 'The flow id assigned by the PA.' }),
    parse_status: z.enum(INBOUND_PARSE_STATUSES).meta({ description: 'parsed, parse_failed (read what could be) or pending.' }),
    invoice_number: nullableString.meta({ description: 'The supplier’s invoice number; null when unread.' }),
    issue_date: IsoDate.nullable().meta({ description: 'Issue date as read; null when unread.' }),
    due_date: IsoDate.nullable().meta({ description: 'Due date as read; null when none.' }),
    currency: nullableString.meta({ description: 'ISO 4217 currency code (EUR); null when unread.' }),
    seller_name: nullableString.meta({ description: 'The supplier’s name as read; null when unread.' }),
    sender_siren: nullableString.meta({ description: 'The supplier’s SIREN as read; null when unread.' }),
    total_ht: z.number().int().nullable().meta({ description: 'Cents.' }),
    total_vat: z.number().int().nullable().meta({ description: 'Cents.' }),
    total_ttc: z.number().int().nullable().meta({ description: 'Cents.' }),
    byte_size: z.number().int().nullable().meta({ description: 'Size of the stored original file.' }),
    pdf_storage_key: nullableString.meta({ description: 'Object-store key of the readable PDF.' }),
    received_at: Timestamp.nullable().meta({ description: 'When the PA received it; null when not said.' }),
    imported_at: Timestamp.nullable().meta({ description: 'When Paraphe fetched it from the PA.' }),
    created_at: Timestamp,
  })
  .meta({ id: 'InboundInvoice' });
export type InboundInvoice = z.infer<typeof InboundInvoice>;
