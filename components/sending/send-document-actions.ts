'use server';

import { revalidatePath } from 'next/cache';
import { plural, pluralWord } from '@/lib/platform/format';
import { formAction, idOf, staffAction } from '@/lib/platform/next';
import { previewSend, SendDocumentInput, sendDocument } from '@/lib/domain/sending';

/** The dialog's fields as the API's input: copies typed as a list separated by commas, spaces or semicolons. */
function sendInputOf(text: (name: string) => string) {
  return SendDocumentInput.parse({
    email: text('email'),
    cc: text('cc')
      .split(/[\s,;]+/)
      .filter(Boolean),
    subject: text('subject'),
    message: text('message'),
  });
}

/** As POST /v1/invoices/{id}/send: the form's address, copies, subject and message are for this send only. */
export const sendDocumentAction = formAction(
  async ({ db, orgId }, input, documentId: string) => {
    const id = idOf(documentId);
    const result = await sendDocument(db, orgId, id, input);
    revalidatePath(`/documents/${id}`);
    revalidatePath('/documents');
    revalidatePath('/reminders');
    const n = result.scheduled_reminders;
    return { done: `Document envoyé.${n > 0 ? ` ${plural(n, 'relance')} ${pluralWord(n, 'programmée')}.` : ''}` };
  },
  {
    input: (form: FormData) => sendInputOf((name) => String(form.get(name) ?? '')),
    // "cc.1" is shown beside the copies field.
    lists: ['cc'],
    notFound: 'Document introuvable.',
  },
);

/** The e-mail the dialog's fields would send (recipient, subject, text), nothing sent. */
export const previewSendAction = staffAction(
  async ({ db, orgId }, documentId: string, fields: Record<string, string>) =>
    previewSend(
      db,
      orgId,
      idOf(documentId),
      sendInputOf((name) => String(fields[name] ?? '')),
    ),
  { notFound: 'Document introuvable.', lists: ['cc'] },
);
