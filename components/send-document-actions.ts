'use server';

import { revalidatePath } from 'next/cache';
import { formAction, idOf } from '@/lib/http/action';
import { SendDocumentInput, sendDocument } from '@/lib/sending';

/** As POST /v1/invoices/{id}/send: the form's address, copies, subject and message are for this send only. */
export const sendDocumentAction = formAction(
  async ({ db, orgId }, input, documentId: string) => {
    const id = idOf(documentId);
    const result = await sendDocument(db, orgId, id, input);
    revalidatePath(`/documents/${id}`);
    revalidatePath('/documents');
    revalidatePath('/reminders');
    const n = result.scheduled_reminders;
    return { done: `Document envoyé.${n > 0 ? ` ${n} relance${n > 1 ? 's' : ''} programmée${n > 1 ? 's' : ''}.` : ''}` };
  },
  {
    input: (form: FormData) => {
      const text = (name: string) => String(form.get(name) ?? '');
      return SendDocumentInput.parse({
        email: text('email'),
        cc: text('cc')
          .split(/[\s,;]+/)
          .filter(Boolean),
        subject: text('subject'),
        message: text('message'),
      });
    },
    // "cc.1" is shown beside the copies field.
    lists: ['cc'],
    notFound: 'Document introuvable.',
  },
);
