'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { ApiError, fieldErrors } from '@/lib/errors';
import { requireStaffOrg } from '@/lib/http/staff';
import { parisInstant } from '@/lib/reminders/ladder';
import { addManualReminder, deleteReminder } from '@/lib/reminders/reminders';
import { ReminderCreate } from '@/lib/reminders/schemas';

/** What the ladder's forms get back: a message, or messages by field. */
export type ReminderActionState = { error?: string; errors?: Record<string, string>; done?: string };

const Id = z.uuid();

/** A refusal of the service (404, 409, 422) as the page shows it; anything else is a bug and is rethrown. */
function refusal(err: unknown): ReminderActionState {
  if (err instanceof ApiError && err.status >= 400 && err.status < 500) {
    return err.field ? { error: err.message, errors: { [err.field]: err.message.replace(`${err.field}: `, '') } } : { error: err.message };
  }
  throw err;
}

const refresh = (documentId: string) => {
  revalidatePath(`/documents/${documentId}`);
  revalidatePath('/reminders');
};

/** As POST /v1/invoices/{id}/reminders. The form's date and time are Paris wall-clock; empty means now. */
export async function addReminderAction(documentId: string, _prev: ReminderActionState, form: FormData): Promise<ReminderActionState> {
  const staff = await requireStaffOrg();
  const id = Id.safeParse(documentId);
  if (!id.success) return { error: 'Document introuvable.' };
  const local = String(form.get('scheduled_at') ?? '').trim();
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})$/.exec(local);
  if (local && !match) return { errors: { scheduled_at: 'Date et heure attendues.' } };
  const parsed = ReminderCreate.safeParse({
    scheduled_at: match ? parisInstant(match[1]!, Number(match[2]), Number(match[3])).toISOString() : null,
    message: String(form.get('message') ?? ''),
    tone: String(form.get('tone') ?? '') || null,
  });
  if (!parsed.success) return { errors: fieldErrors(parsed.error) };
  try {
    await addManualReminder(staff.db, staff.orgId, id.data, parsed.data);
  } catch (err) {
    return refusal(err);
  }
  refresh(id.data);
  return { done: match ? 'Relance programmée.' : 'Relance programmée : elle part dans la minute.' };
}

/** As DELETE /v1/invoices/{id}/reminders/{reminder_id}: only a pending reminder. */
export async function deleteReminderAction(documentId: string, reminderId: string): Promise<ReminderActionState> {
  const staff = await requireStaffOrg();
  const ids = z.tuple([Id, Id]).safeParse([documentId, reminderId]);
  if (!ids.success) return { error: 'Relance introuvable.' };
  try {
    await deleteReminder(staff.db, staff.orgId, ids.data[0], ids.data[1]);
  } catch (err) {
    return refusal(err);
  }
  refresh(ids.data[0]);
  return { done: 'Relance supprimée.' };
}
