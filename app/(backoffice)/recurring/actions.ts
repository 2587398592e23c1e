'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { formatDay, formatMoney } from '@/lib/platform/format';
import { formAction, idOf, staffAction } from '@/lib/platform/next';
import { mandateOfContact } from '@/lib/domain/payments';
import {
  activateRecurringTemplate,
  createRecurringTemplate,
  deleteRecurringTemplate,
  pauseRecurringTemplate,
  RecurringTemplateCreate,
  RecurringTemplatePatch,
  runRecurringTemplate,
  updateRecurringTemplate,
} from '@/lib/domain/recurring';

/*
 * The recurring templates' server actions: each parses with lib/domain/recurring's schemas and calls its index, as the
 * /v1/recurring-invoices routes do; refusals come back in French through lib/platform/next/action (lib/platform/i18n's catalogue).
 */

function refresh(id?: string) {
  revalidatePath('/recurring');
  if (id) revalidatePath(`/recurring/${id}`);
}

const onTemplate = { notFound: 'Modèle récurrent introuvable.' } as const;
const templateId = (id: string) => idOf(id, 'Recurring invoice template');

/** Creates (no id) or updates the template from the editor's payload, then opens its page. */
export const saveTemplateAction = formAction(async ({ db, orgId }, { id, payload }: { id: string | null; payload: Record<string, unknown> }) => {
  const saved = id
    ? await updateRecurringTemplate(db, orgId, templateId(id), RecurringTemplatePatch.parse(payload))
    : await createRecurringTemplate(db, orgId, RecurringTemplateCreate.parse(payload));
  refresh(saved.id);
  redirect(`/recurring/${saved.id}`);
}, onTemplate);

/** The contact's SEPA mandate state, for the editor's auto-collection sentence (null: none ever). */
export const contactMandateAction = staffAction(async ({ db, orgId }, contactId: string) => {
  const mandate = await mandateOfContact(db, orgId, idOf(contactId, 'Contact'));
  return mandate?.status ?? null;
});

export const pauseTemplateAction = formAction(async ({ db, orgId }, _form: FormData, id: string) => {
  await pauseRecurringTemplate(db, orgId, templateId(id));
  refresh(id);
  return { done: 'Modèle en pause : aucune facture ne sera générée tant qu’il n’est pas réactivé.' };
}, onTemplate);

/** Active again from the first date on or after today: the periods that passed while paused are not generated. */
export const activateTemplateAction = formAction(async ({ db, orgId }, _form: FormData, id: string) => {
  const t = await activateRecurringTemplate(db, orgId, templateId(id));
  refresh(id);
  return { done: `Modèle actif : prochaine facture le ${formatDay(t.next_generation_date)}.` };
}, onTemplate);

/** "Générer maintenant": the current period's invoice at once (finalized and sent too with auto_send), then the date advances. */
export const runTemplateAction = formAction(async ({ db, orgId }, _form: FormData, id: string) => {
  const doc = await runRecurringTemplate(db, orgId, templateId(id));
  refresh(id);
  revalidatePath('/documents');
  const what = doc.number ? `Facture ${doc.number} générée et ${doc.sent_at ? 'envoyée' : 'finalisée'}` : 'Facture générée en brouillon';
  return { done: `${what} (${formatMoney(doc.total_ttc)} TTC) : elle figure dans l’historique ci-dessous.` };
}, onTemplate);

/** The template and its history go; the invoices it generated stay. */
export const deleteTemplateAction = formAction(async ({ db, orgId }, _form: FormData, id: string) => {
  await deleteRecurringTemplate(db, orgId, templateId(id));
  refresh();
  redirect('/recurring?deleted=1');
}, onTemplate);
