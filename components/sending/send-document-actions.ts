'use server';

import { revalidatePath } from 'next/cache';
import { formAction, staffAction } from '@/lib/platform/next';
import { previewHandler, sendFormFields, sendHandler } from './send-handlers';

/** As POST /v1/invoices/{id}/send, or /send-for-payment with the pay link: the form's fields are for this send only. */
export const sendDocumentAction = formAction(
  async (staff, fields: ReturnType<typeof sendFormFields>, documentId: string) => {
    const reply = await sendHandler(staff, fields, documentId);
    revalidatePath(`/documents/${documentId}`);
    revalidatePath('/documents');
    revalidatePath('/reminders');
    return reply;
  },
  {
    input: sendFormFields,
    // "cc.1" is shown beside the copies field.
    lists: ['cc'],
    notFound: 'Document introuvable.',
  },
);

/** The e-mail the dialog's fields would send (recipient, subject, text), nothing sent. */
export const previewSendAction = staffAction(previewHandler, { notFound: 'Document introuvable.', lists: ['cc'] });
