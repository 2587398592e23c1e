import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { webhookDeliveries, webhookEndpoints } from '@/db/schema';
import { createActionWrappers, initialFormState, type StaffSession } from '@/lib/platform/next';
import { addMembership, createUser } from '@/lib/platform/orgs';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { deliveryLog } from '@/lib/domain/webhooks';
import { ADMIN_ONLY, create, IdInput, RedeliverInput, readCreateForm, redeliverOne, remove, rotate, sendTest, ToggleInput, toggle } from './handlers';

// Settings → Webhooks' actions are these handlers in the action wrapper, run here under a given session.
let session: StaffSession = null;
const { formAction } = createActionWrappers(async () => session);
const createAction = formAction(create, { input: readCreateForm, adminOnly: ADMIN_ONLY });
const rotateAction = formAction(rotate, { adminOnly: ADMIN_ONLY });
const testAction = formAction(sendTest, { adminOnly: ADMIN_ONLY });
const toggleAction = formAction(toggle, { input: (f: FormData) => ToggleInput.parse({ id: f.get('id'), enabled: f.get('enabled') }), adminOnly: ADMIN_ONLY });
const removeAction = formAction(remove, { input: (f: FormData) => IdInput.parse({ id: f.get('id') }), adminOnly: ADMIN_ONLY });
const redeliverAction = formAction(redeliverOne, { input: (f: FormData) => RedeliverInput.parse({ id: f.get('id'), delivery_id: f.get('delivery_id') }), adminOnly: ADMIN_ONLY });

let org: TestOrg;
let other: TestOrg;
const users = { owner: '', member: '', stranger: '' };
const form = (entries: Array<[string, string]>) => {
  const f = new FormData();
  for (const [k, v] of entries) f.append(k, v);
  return f;
};
const URL_OK = 'https://93.184.215.14/hooks';

beforeAll(async () => {
  org = await createTestOrg();
  other = await createTestOrg();
  for (const role of ['owner', 'member'] as const) {
    users[role] = (await createUser(org.db, { email: `${role}-${org.org.id}@example.fr`, password: 'long enough password' })).id;
    await addMembership(org.db, org.org.id, users[role], role);
  }
  users.stranger = (await createUser(org.db, { email: `owner-${other.org.id}@example.fr`, password: 'long enough password' })).id;
  await addMembership(org.db, other.org.id, users.stranger, 'owner');
});
const as = (who: keyof typeof users, o: TestOrg = org) => {
  session = { userId: users[who], orgId: o.org.id };
};

describe('Settings → Webhooks', () => {
  it('creates an endpoint from the picked events and shows its secret once', async () => {
    as('owner');
    const state = await createAction(initialFormState as never, form([['url', URL_OK], ['events', 'invoice.paid'], ['events', 'payment.recorded']]));
    expect(state.error, JSON.stringify(state)).toBeUndefined();
    expect(state.data).toEqual({ url: URL_OK, secret: expect.stringMatching(/^whsec_/) });
    const [row] = await org.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.org_id, org.org.id));
    expect(row).toMatchObject({ url: URL_OK, events: ['invoice.paid', 'payment.recorded'], enabled: true, secret: state.data!.secret });

    const all = await createAction(initialFormState as never, form([['url', URL_OK], ['all', 'on'], ['events', 'invoice.paid']]));
    expect(all.data?.secret).toMatch(/^whsec_/);
    const rows = await org.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.org_id, org.org.id));
    expect(rows.map((r) => r.events)).toContainEqual(['*']);
  });

  it('refuses in French beside the field: a private address, no event; keeps what was typed', async () => {
    as('owner');
    const priv = await createAction(initialFormState as never, form([['url', 'https://192.168.0.10/hook'], ['events', 'invoice.paid']]));
    expect(priv.errors).toEqual({ url: 'Cette adresse mène à un réseau privé ou réservé : indiquez une adresse publique.' });
    expect(priv.texts?.url).toBe('https://192.168.0.10/hook');
    const http = await createAction(initialFormState as never, form([['url', 'http://93.184.215.14/'], ['events', 'invoice.paid']]));
    expect(http.errors).toEqual({ url: 'L’adresse doit commencer par https://.' });
    const none = await createAction(initialFormState as never, form([['url', URL_OK]]));
    expect(none.errors?.events).toBe('Ce champ est obligatoire.');
  });

  it('lets a member read only: every write is refused with the admin-only message', async () => {
    as('member');
    const ep = (await org.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.org_id, org.org.id)))[0]!;
    for (const [action, f] of [
      [createAction, form([['url', URL_OK], ['all', 'on']])],
      [rotateAction.bind(null, ep.id), form([])],
      [toggleAction, form([['id', ep.id], ['enabled', 'false']])],
      [removeAction, form([['id', ep.id]])],
    ] as const) {
      const state = await (action as (s: never, f: FormData) => Promise<{ error?: string }>)(initialFormState as never, f);
      expect(state.error).toBe(ADMIN_ONLY);
    }
    expect((await org.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, ep.id)))[0]).toMatchObject({ enabled: true, secret: ep.secret });
  });

  it('rotates, sends a test, disables and enables, redelivers, deletes; another org’s endpoint is not found', async () => {
    as('owner');
    const ep = (await org.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.org_id, org.org.id)))[0]!;
    const rotated = await rotateAction(ep.id, initialFormState as never, form([]));
    expect(rotated.data?.secret).toMatch(/^whsec_/);
    expect(rotated.data?.secret).not.toBe(ep.secret);

    const tested = await testAction(ep.id, initialFormState as never, form([]));
    expect(tested.done).toMatch(/^Événement de test envoyé/);
    const log = await deliveryLog(org.db, org.org.id, ep.id, { limit: 50 });
    expect(log.data).toHaveLength(1);
    expect(log.data[0]).toMatchObject({ event_type: 'webhook.test', status: 'pending', body: { type: 'webhook.test', data: { object: { endpoint_id: ep.id } } } });

    await toggleAction(initialFormState as never, form([['id', ep.id], ['enabled', 'false']]));
    expect((await org.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, ep.id)))[0]!.enabled).toBe(false);
    await toggleAction(initialFormState as never, form([['id', ep.id], ['enabled', 'true']]));
    expect((await org.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, ep.id)))[0]!.enabled).toBe(true);

    const delivery = log.data[0]!;
    await org.db.update(webhookDeliveries).set({ status: 'failed', attempt: 8 }).where(eq(webhookDeliveries.id, delivery.id));
    const again = await redeliverAction(initialFormState as never, form([['id', ep.id], ['delivery_id', delivery.id]]));
    expect(again.done).toBe('Renvoi programmé.');
    expect((await org.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, delivery.id)))[0]).toMatchObject({ status: 'pending', attempt: 0 });

    as('stranger', other);
    expect((await rotateAction(ep.id, initialFormState as never, form([]))).error).toBe('Introuvable : l’élément a peut-être été supprimé.');
    expect((await removeAction(initialFormState as never, form([['id', ep.id]]))).error).toBe('Introuvable : l’élément a peut-être été supprimé.');
    expect((await redeliverAction(initialFormState as never, form([['id', ep.id], ['delivery_id', delivery.id]]))).error).toBe(
      'Introuvable : l’élément a peut-être été supprimé.',
    );

    as('owner');
    await removeAction(initialFormState as never, form([['id', ep.id]]));
    expect(await org.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, ep.id))).toEqual([]);
  });
});
