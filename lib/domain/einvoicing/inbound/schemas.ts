import { z } from 'zod';
import { INBOUND_PARSE_STATUSES } from '@/db/schema';
import { PageQuery } from '@/lib/platform/http';
import { isValidSiren } from '@/lib/platform/identifiers';
import { IsoDate, pageOf, text, Timestamp } from '@/lib/platform/contract';
import { InboundInvoice } from '../schemas';

export const InboundListQuery = PageQuery.extend({
  parse_status: z.enum(INBOUND_PARSE_STATUSES, { error: 'must be one of parsed, parse_failed, pending' }).optional().meta({ description: 'Only invoices in this parse status.' }),
  sender_siren: z
    .string()
    .trim()
    .refine(isValidSiren, { error: 'must be a SIREN: 9 digits with a valid check digit (Luhn)' })
    .optional()
    .meta({ description: 'The seller’s SIREN as read from the invoice.' }),
  received_from: IsoDate.optional().meta({ description: 'Received by the PA on or after this day (Europe/Paris).' }),
  received_to: IsoDate.optional().meta({ description: 'Received by the PA on or before this day (Europe/Paris).' }),
});
export type InboundListQuery = z.output<typeof InboundListQuery>;

export const InboundInvoicePage = pageOf(InboundInvoice, 'InboundInvoicePage');

/** XP Z12-012's closed list of reasons for 210 Refusée (reference/french-invoicing-compliance.md). */
export const REFUSAL_REASONS = [
  'TX_TVA_ERR',
  'MONTANTTOTAL_ERR',
  'CALCUL_ERR',
  'NON_CONFORME',
  'DOUBLON',
  'DEST_ERR',
  'TRANSAC_INC',
  'EMMET_INC',
  'CONTRAT_TERM',
  'DOUBLE_FACT',
  'CMD_ERR',
  'ADR_ERR',
  'REF_CT_ABSENT',
] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

/** What staff answer to a received invoice, and the CDAR status code each sends to the PA. */
export const INBOUND_ANSWERS = { accept: '205', refuse: '210', dispute: '207' } as const;
export type InboundAnswer = keyof typeof INBOUND_ANSWERS;

const reason = text(500).meta({ description: 'Free text sent with the status (CDAR Reason).' });

export const AcceptInboundInput = z
  .strictObject({ reason }, { error: 'must be an object' })
  .default({ reason: null })
  .meta({ id: 'AcceptInboundInvoiceInput', description: 'Optional comment.' });
export const RefuseInboundInput = z
  .strictObject(
    {
      reason_code: z.enum(REFUSAL_REASONS, { error: `must be one of ${REFUSAL_REASONS.join(', ')}` }).meta({ description: 'XP Z12-012 reason code of 210 Refusée.' }),
      reason,
    },
    { error: 'must be an object' },
  )
  .meta({ id: 'RefuseInboundInvoiceInput' });
export const DisputeInboundInput = z
  .strictObject(
    {
      reason: z
        .string({ error: 'required' })
        .trim()
        .min(1, { error: 'required' })
        .max(500, { error: 'at most 500 characters' })
        .meta({ description: 'What is disputed (required for 207 En litige).' }),
    },
    { error: 'must be an object' },
  )
  .meta({ id: 'DisputeInboundInvoiceInput' });

/** The lifecycle status the org sent for a received invoice (an extension of the spec's Inbound invoice). */
export const InboundAnswerResult = z
  .object({
    inbound_invoice_id: z.uuid().meta({ description: 'The invoice answered.' }),
    code: z.string().meta({ description: 'CDAR status code: 205 Approuvée, 210 Refusée, 207 En litige.' }),
    lifecycle_status: z.string().meta({ description: 'Its token: approuvee, refusee, en_litige.' }),
    reason_code: z.string().nullable().meta({ description: 'The refusal’s XP Z12-012 reason code; null otherwise.' }),
    reason: z.string().nullable().meta({ description: 'The free text sent; null when none.' }),
    lifecycle_at: Timestamp,
    cdar_flow_id: z.string().meta({ description: 'The PA’s flow id of the CDAR message sent.' }),
  })
  .meta({ id: 'InboundInvoiceAnswer' });
export type InboundAnswerResult = z.infer<typeof InboundAnswerResult>;
