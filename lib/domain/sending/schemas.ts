import { z } from 'zod';
import { BillingDocument } from '@/lib/domain/documents';
import { EmailAddress, text } from '@/lib/platform/contract';


export const SendDocumentInput = z
  .strictObject({
    email: z
      .string({ error: 'must be an e-mail address' })
      .trim()
      .nullish()
      .transform((s) => s || null)
      .pipe(EmailAddress.nullable())
      .meta({ type: ['string', 'null'], description: "This send only; omitted, null or blank: the contact's e-mail. The contact is not modified." }),
    cc: z
      .array(EmailAddress, { error: 'must be an array of e-mail addresses' })
      .max(20, { error: 'at most 20 addresses' })
      .nullish()
      .transform((a) => [...new Set(a ?? [])])
      .meta({ description: 'Copied recipients, this send only.' }),
    subject: text(300).meta({ description: "Replaces the template's subject line." }),
    message: text(5000).meta({ description: 'Your own words, quoted in the e-mail as written.' }),
  })
  .meta({ id: 'SendDocumentInput', description: 'Every field optional; nothing here is stored on the contact.' });
export type SendDocumentInput = z.output<typeof SendDocumentInput>;

export const SendDocumentResult = z
  .object({
    document: BillingDocument.meta({ description: 'The document after the send (status sent, sent_at set).' }),
    scheduled_reminders: z.number().int().meta({
      description:
        'Reminders armed by this send: payment reminders for an invoice or deposit invoice, quote-expiry reminders for a quote; 0 for ' +
        'documents not chased (credit notes, no anchor date, settled, fully past ladder) or when the document already had its ladder.',
    }),
    sent: z.literal(true).meta({ description: 'Always true: the e-mail was queued.' }),
  })
  .meta({ id: 'SendDocumentResult' });
export type SendDocumentResult = z.infer<typeof SendDocumentResult>;
