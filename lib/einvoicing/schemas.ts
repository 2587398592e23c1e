import { z } from 'zod';
import { ENROLLMENT_STATUSES, INBOUND_PARSE_STATUSES } from '@/db/schema';
import { isValidSiren, isValidSiret } from '@/lib/identifiers';
import { IsoDate, nullableString, Timestamp } from '@/lib/openapi/schemas';

/** DESIGN §11: the org's directory enrollment through its PA. */
export const Enrollment = z
  .object({
    status: z.enum(ENROLLMENT_STATUSES),
    siren: nullableString,
    siret: nullableString,
    routing_code: nullableString,
    electronic_address: nullableString.meta({ description: '`0225:<SIREN>` (ISO 6523 ICD 0225), or with the SIRET / routing code when enrolled at that level.' }),
    reason: nullableString.meta({ description: 'Why the PA refused (failed), else null.' }),
    requested_at: Timestamp.nullable(),
    enrolled_at: Timestamp.nullable(),
  })
  .meta({ id: 'EinvoicingEnrollment' });
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
    id: z.uuid(),
    transmission_id: z.string().meta({ description: 'The flow id assigned by the PA.' }),
    parse_status: z.enum(INBOUND_PARSE_STATUSES),
    invoice_number: nullableString,
    issue_date: IsoDate.nullable(),
    due_date: IsoDate.nullable(),
    currency: nullableString,
    seller_name: nullableString,
    sender_siren: nullableString,
    total_ht: z.number().int().nullable().meta({ description: 'Cents.' }),
    total_vat: z.number().int().nullable().meta({ description: 'Cents.' }),
    total_ttc: z.number().int().nullable().meta({ description: 'Cents.' }),
    byte_size: z.number().int().nullable().meta({ description: 'Size of the stored original file.' }),
    pdf_storage_key: nullableString.meta({ description: 'Object-store key of the readable PDF.' }),
    received_at: Timestamp.nullable(),
    imported_at: Timestamp.nullable(),
    created_at: Timestamp,
  })
  .meta({ id: 'InboundInvoice' });
export type InboundInvoice = z.infer<typeof InboundInvoice>;
