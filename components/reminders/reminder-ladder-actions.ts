'use server';

import { revalidatePath } from 'next/cache';
import { formAction, idOf, refuse, staffAction } from '@/lib/platform/next';
import { addManualReminder, deleteReminder, parisInstant, ReminderCreate, scheduleLadder } from '@/lib/domain/reminders';
import { formatInstant, plural } from '@/lib/platform/format';

const refresh = (documentId: string) => {
  revalidatePath(`/documents/${documentId}`);
  revalidatePath('/reminders');
};

/** The form's date and time are Paris wall-clock; empty means now. */
function reminderOf(form: FormData) {
  const local = String(form.get('scheduled_at') ?? '').trim();
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})$/.exec(local);
  if (local && !match) refuse({ scheduled_at: 'Date et heure attendues.' });
  return ReminderCreate.parse({
    scheduled_at: match ? parisInstant(match[1]!, Number(match[2]), Number(match[3])).toISOString() : null,
    message: String(form.get('message') ?? ''),
    tone: String(form.get('tone') ?? '') || null,
  });
}

/** As POST /v1/invoices/{id}/reminders. */
export const addReminderAction = formAction(
  async ({ db, orgId }, input, documentId: string) => {
    const id = idOf(documentId);
    await addManualReminder(db, orgId, id, input);
    refresh(id);
    return { done: input.scheduled_at ? 'Relance programmée.' : 'Relance programmée : elle part dans la minute.' };
  },
  { input: reminderOf, notFound: 'Document introuvable.' },
);

/** As DELETE /v1/invoices/{id}/reminders/{reminder_id}: only a pending reminder. */
export const deleteReminderAction = staffAction(
  async ({ db, orgId }, documentId: string, reminderId: string) => {
    const id = idOf(documentId);
    await deleteReminder(db, orgId, id, idOf(reminderId));
    refresh(id);
    return { done: 'Relance supprimée.' };
  },
  { notFound: 'Relance introuvable.' },
);

/** « Programmer les relances » (À relancer): the org's ladder armed on an invoice that has none, as a send arms it. */
export const scheduleLadderAction = formAction(
  async ({ db, orgId }, _input, documentId: string) => {
    const id = idOf(documentId);
    const { scheduled, next_at } = await scheduleLadder(db, orgId, id);
    refresh(id);
    return {
      done:
        scheduled > 0
          ? `${plural(scheduled, 'relance programmée', 'relances programmées')}, la prochaine le ${formatInstant(next_at)}.`
          : 'Aucune relance à venir : les étapes du calendrier sont toutes passées (ou il est vide). Relancez maintenant.',
    };
  },
  { notFound: 'Document introuvable.' },
);
