'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { ApiError, fieldErrors } from '@/lib/errors';
import { requireStaffOrg } from '@/lib/http/staff';
import { SendDocumentInput, sendDocument } from '@/lib/sending';

/** What the send dialog gets back: a message, or messages by field. */
export type SendActionState = { error?: string; errors?: Record<string, string>; done?: string };

const Id = z.uuid();

/** As POST /v1/invoices/{id}/send: the form's address, copies, subject and message are for this send only. */
export async function sendDocumentAction(documentId: string, _prev: SendActionState, form: FormData): Promise<SendActionState> {
  const staff = await requireStaffOrg();
  const id = Id.safeParse(documentId);
  if (!id.success) return { error: 'Document introuvable.' };
  const text = (name: string) => String(form.get(name) ?? '');
  const parsed = SendDocumentInput.safeParse({
    email: text('email'),
    cc: text('cc')
      .split(/[\s,;]+/)
      .filter(Boolean),
    subject: text('subject'),
    message: text('message'),
  });
  if (!parsed.success) {
    // "cc.1" is shown beside the copies field.
    const errors: Record<string, string> = {};
    for (const [key, message] of Object.entries(fieldErrors(parsed.error))) errors[key.startsWith('cc.') ? 'cc' : key] ??= message;
    return { errors };
  }
  let result: Awaited<ReturnType<typeof sendDocument>>;
  try {
    result = await sendDocument(staff.db, staff.orgId, id.data, parsed.data);
  } catch (err) {
    if (err instanceof ApiError && err.status >= 400 && err.status < 500) {
      return err.field ? { error: err.message, errors: { [err.field]: err.message } } : { error: err.message };
    }
    throw err;
  }
  revalidatePath(`/documents/${id.data}`);
  revalidatePath('/documents');
  revalidatePath('/reminders');
  const n = result.scheduled_reminders;
  return { done: `Document envoyé.${n > 0 ? ` ${n} relance${n > 1 ? 's' : ''} programmée${n > 1 ? 's' : ''}.` : ''}` };
}
