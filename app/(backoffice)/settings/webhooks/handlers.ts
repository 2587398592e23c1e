import { z } from 'zod';
import { idOf, type StaffContext } from '@/lib/platform/next';
import { createEndpoint, deleteEndpoint, redeliver, rotateSecret, sendTestEvent, updateEndpoint, WebhookEndpointCreate } from '@/lib/domain/webhooks';

/*
 * What Settings → Webhooks' actions do, apart from their wrappers (actions.ts adds revalidation): the tests run these
 * same handlers under a given session.
 */

export const SETTINGS_PATH = '/settings/webhooks';
export const ADMIN_ONLY = 'Seuls le propriétaire et les administrateurs gèrent les webhooks.';

/** The create form: a URL and the events ticked, or « Tous les événements » (`*`). */
export function readCreateForm(form: FormData) {
  const all = form.get('all') === 'on';
  return WebhookEndpointCreate.parse({ url: form.get('url') ?? '', events: all ? ['*'] : form.getAll('events'), enabled: true });
}

/** The secret comes back once, to be shown once: it is never stored anywhere but the endpoint row. */
export async function create({ db, orgId }: StaffContext, input: WebhookEndpointCreate) {
  const endpoint = await createEndpoint(db, orgId, input);
  return { data: { url: endpoint.url, secret: endpoint.secret } };
}

export async function rotate({ db, orgId }: StaffContext, _form: FormData, id: string) {
  const endpoint = await rotateSecret(db, orgId, idOf(id, 'Webhook endpoint'));
  return { data: { url: endpoint.url, secret: endpoint.secret } };
}

export async function sendTest({ db, orgId }: StaffContext, _form: FormData, id: string) {
  await sendTestEvent(db, orgId, idOf(id, 'Webhook endpoint'));
  return { done: 'Événement de test envoyé : son résultat apparaît dans le journal des envois.' };
}

export const ToggleInput = z.object({ id: z.uuid(), enabled: z.enum(['true', 'false']).transform((v) => v === 'true') });

export async function toggle({ db, orgId }: StaffContext, input: z.output<typeof ToggleInput>) {
  await updateEndpoint(db, orgId, input.id, { enabled: input.enabled });
  return { done: input.enabled ? 'Webhook activé.' : 'Webhook désactivé.' };
}

export const IdInput = z.object({ id: z.uuid() });

export async function remove({ db, orgId }: StaffContext, input: z.output<typeof IdInput>) {
  await deleteEndpoint(db, orgId, input.id);
  return { done: 'Webhook supprimé.' };
}

export const RedeliverInput = z.object({ id: z.uuid(), delivery_id: z.uuid() });

export async function redeliverOne({ db, orgId }: StaffContext, input: z.output<typeof RedeliverInput>) {
  await redeliver(db, orgId, input.id, input.delivery_id);
  return { done: 'Renvoi programmé.' };
}
