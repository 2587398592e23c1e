import { randomUUID } from 'node:crypto';
import { notFound, redirect } from 'next/navigation';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ContactCreate, ContactPatch, createContact, deleteContact, getContact, updateContact } from '@/lib/domain/contacts';
import { rowsOf } from '@/lib/domain/contacts/testing';
import { validationError } from '@/lib/platform/errors';
import { addMembership, createUser } from '@/lib/platform/orgs';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { createActionWrappers, idOf, refuse } from './action';
import { initialFormState } from './form-state';
import type { StaffSession } from './staff';

// The session is the one thing given: a server action reads it from the request's cookie, which a test has not.
// Everything behind it (membership check, schemas, services, error mapping) is the real code on the real database.
let session: StaffSession = null;
const { staffAction, formAction, buttonAction } = createActionWrappers(async () => session);

let org: TestOrg;
let other: TestOrg;
let memberId: string;
let adminId: string;

/** What redirect() and notFound() throw: an error whose digest names the target. */
const digestOf = async (run: Promise<unknown>) => {
  const err = await run.then(
    () => null,
    (e: unknown) => e,
  );
  return (err as { digest?: string } | null)?.digest ?? null;
};

const form = (fields: Record<string, string | string[]>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) for (const v of [value].flat()) data.append(name, v);
  return data;
};

beforeAll(async () => {
  org = await createTestOrg();
  other = await createTestOrg();
  memberId = (await createUser(org.db, { email: `member-${org.org.id}@example.fr`, password: 'long enough password' })).id;
  adminId = (await createUser(org.db, { email: `admin-${org.org.id}@example.fr`, password: 'long enough password' })).id;
  await addMembership(org.db, org.org.id, memberId, 'member');
  await addMembership(org.db, org.org.id, adminId, 'admin');
});

describe('the staff member and the active org', () => {
  const whoAmI = staffAction(async (staff) => ({ userId: staff.userId, orgId: staff.orgId, role: staff.role }));

  it('sends a visitor without a session to /login, before the action runs', async () => {
    session = null;
    expect(await digestOf(whoAmI())).toMatch(/^NEXT_REDIRECT;.*;\/login;/);
    session = {};
    expect(await digestOf(whoAmI())).toMatch(/;\/login;/);
  });

  it('sends a session without an org, or with an org the user is not a member of, to /no-org', async () => {
    for (const orgId of [null, other.org.id, randomUUID()]) {
      session = { userId: memberId, orgId };
      expect(await digestOf(whoAmI())).toMatch(/;\/no-org;/);
    }
  });

  it('runs the action as the member, in the org of the session', async () => {
    session = { userId: memberId, orgId: org.org.id };
    expect(await whoAmI()).toEqual({ userId: memberId, orgId: org.org.id, role: 'member' });
  });

  it('refuses a member what only an admin may do', async () => {
    const adminOnly = staffAction(async () => 'done', { adminOnly: 'Seuls les administrateurs.' });
    session = { userId: memberId, orgId: org.org.id };
    expect(await adminOnly()).toEqual({ refused: true, error: 'Seuls les administrateurs.' });
    session = { userId: adminId, orgId: org.org.id };
    expect(await adminOnly()).toBe('done');
  });
});

describe('formAction', () => {
  const createContactAction = formAction(async (staff, input) => ({ data: await createContact(staff.db, staff.orgId, input) }), { input: ContactCreate });

  beforeAll(() => {
    session = { userId: memberId, orgId: org.org.id };
  });

  it('reads the form with the schema and runs the service in the active org', async () => {
    const state = await createContactAction(initialFormState, form({ type: 'professionnel', company: 'Menuiserie Action' }));
    expect(state).toEqual({ attempt: 1, data: expect.objectContaining({ company: 'Menuiserie Action' }) });
    expect((await getContact(org.db, org.org.id, state.data!.id)).company).toBe('Menuiserie Action');
  });

  it('refuses a control character in a field like the API does, and runs nothing', async () => {
    const state = await createContactAction(initialFormState, form({ type: 'professionnel', company: 'Menuiserie\u0000' }));
    expect(state.errors).toEqual({ company: 'Ce texte contient un caractère invisible interdit : retapez-le.' });
    expect((await rowsOf(org)).map((c) => c.company)).not.toContain('Menuiserie\u0000');
  });

  it('refuses it too when a function reads the form (files beside texts), before the function runs', async () => {
    let ran = false;
    const upload = formAction(
      async () => {
        ran = true;
        return { done: 'Envoyé.' };
      },
      { input: (data: FormData) => data },
    );
    const state = await upload(initialFormState, form({ title: 'Adh\u001bsion' }));
    expect(state.errors).toEqual({ title: 'Ce texte contient un caractère invisible interdit : retapez-le.' });
    expect(ran).toBe(false);
    expect((await upload(initialFormState, form({ title: 'Adhésion\r\n\tfin' }))).done).toBe('Envoyé.');
  });

  it('answers every invalid field of the schema, with what was typed, and runs nothing', async () => {
    const typed = form({ type: 'professionnel', email: 'not-an-address', lead_score: '300' });
    const state = await createContactAction({ attempt: 4 }, typed);
    expect(state.attempt).toBe(5);
    expect(state.error).toBeUndefined();
    expect(state.errors).toMatchObject({ email: expect.any(String), lead_score: expect.any(String) });
    expect(state.texts).toEqual({ type: 'professionnel', email: 'not-an-address', lead_score: '300' });
  });

  it('shows a refusal of the service beside its field, without the field prefix, and whole above the form', async () => {
    const contact = await createContact(org.db, org.org.id, ContactCreate.parse({ type: 'particulier', last_name: 'Durand' }));
    const rename = formAction(async (staff, input, id: string) => {
      await updateContact(staff.db, staff.orgId, idOf(id), input);
      return { done: 'Enregistré.' };
    }, { input: (data: FormData) => ContactPatch.parse({ last_name: data.get('last_name') || null }) });
    // The stored contact has no other name: the service refuses (a 422 on last_name).
    const state = await rename(contact.id, initialFormState, form({ last_name: '' }));
    expect(state).toEqual({
      attempt: 1,
      error: 'Nom : indiquez un nom, un prénom ou une société.',
      errors: { last_name: 'Indiquez un nom, un prénom ou une société.' },
      texts: { last_name: '' },
    });
    expect(await rename(contact.id, initialFormState, form({ last_name: 'Martin' }))).toEqual({ attempt: 1, done: 'Enregistré.' });

    const prefixed = formAction(async () => {
      throw validationError('items.2.vat_rate', 'items.2.vat_rate: no line at 5.5 % (category S) for this discount to reduce');
    });
    // In French (lib/platform/i18n): beside the field the message alone, above the form the line's label before it.
    expect(await prefixed(initialFormState, form({}))).toMatchObject({
      error: 'Ligne 3 — Taux de TVA : aucune ligne à 5.5 % à laquelle appliquer cette remise.',
      errors: { 'items.2.vat_rate': 'Aucune ligne à 5.5 % à laquelle appliquer cette remise.' },
    });
  });

  it('shows a conflict above the form', async () => {
    const contact = await createContact(org.db, org.org.id, ContactCreate.parse({ type: 'particulier', last_name: 'Petit' }));
    await deleteContact(org.db, org.org.id, contact.id);
    const rename = formAction(async (staff, input, id: string) => {
      await updateContact(staff.db, staff.orgId, id, input);
      return undefined;
    }, { input: ContactPatch });
    expect(await rename(contact.id, initialFormState, form({ last_name: 'Grand' }))).toEqual({
      attempt: 1,
      error: 'Ce client est supprimé : restaurez-le d’abord.',
      texts: { last_name: 'Grand' },
    });
  });

  it('names a missing target with the action’s own words, whether the id is unknown or not an id', async () => {
    const open = formAction(async (staff, _input, id: string) => ({ data: await getContact(staff.db, staff.orgId, idOf(id)) }), { notFound: 'Contact introuvable.' });
    for (const id of [randomUUID(), 'not-an-id']) expect(await open(id, initialFormState, form({}))).toMatchObject({ error: 'Contact introuvable.' });
    // Another org's contact is not found either.
    const theirs = await createContact(other.db, other.org.id, ContactCreate.parse({ type: 'particulier', last_name: 'Ailleurs' }));
    expect(await open(theirs.id, initialFormState, form({}))).toMatchObject({ error: 'Contact introuvable.' });
  });

  it('takes several refusals of its own checks at once, and shows a list’s item errors on the list', async () => {
    const send = formAction(
      async (_staff, input) => {
        if (input.subject.length < 2) refuse({ subject: 'Trop court.', _form: 'À revoir.' });
        return { done: 'Envoyé.' };
      },
      { input: (data: FormData) => z.object({ subject: z.string(), cc: z.array(z.email()) }).parse({ subject: data.get('subject'), cc: String(data.get('cc')).split(',').filter(Boolean) }), lists: ['cc'] },
    );
    expect(await send(initialFormState, form({ subject: 'Bonjour', cc: 'a@example.fr,nope' }))).toMatchObject({ errors: { cc: expect.any(String) } });
    expect(await send(initialFormState, form({ subject: 'x', cc: '' }))).toMatchObject({ errors: { subject: 'Trop court.', _form: 'À revoir.' } });
    expect(await send(initialFormState, form({ subject: 'Bonjour', cc: 'a@example.fr' }))).toEqual({ attempt: 1, done: 'Envoyé.' });
  });

  it('lets redirect() and notFound() through, and rethrows a bug', async () => {
    const redirecting = formAction(async () => redirect('/contacts'));
    expect(await digestOf(redirecting(initialFormState, form({})))).toMatch(/;\/contacts;/);
    const missing = formAction(async () => notFound());
    expect(await digestOf(missing(initialFormState, form({})))).toMatch(/404/);
    const buggy = formAction(async () => {
      throw new TypeError('a bug');
    });
    await expect(buggy(initialFormState, form({}))).rejects.toThrow('a bug');
  });
});

describe('staffAction and buttonAction', () => {
  beforeAll(() => {
    session = { userId: memberId, orgId: org.org.id };
  });

  it('answers the result, or a refusal marked as one', async () => {
    const find = staffAction(async (staff, id: string) => getContact(staff.db, staff.orgId, idOf(id)));
    expect(await find(randomUUID())).toEqual({ refused: true, error: 'Introuvable : l’élément a peut-être été supprimé.' });
    const contact = await createContact(org.db, org.org.id, ContactCreate.parse({ type: 'particulier', last_name: 'Lune' }));
    expect(await find(contact.id)).toMatchObject({ id: contact.id, last_name: 'Lune' });
  });

  it('answers a plain form button whose target is not found with the 404 page, raises another refusal like a bug, and does the work otherwise', async () => {
    const remove = buttonAction(async (staff, input) => deleteContact(staff.db, staff.orgId, input.id), { input: z.object({ id: z.uuid() }) });
    expect(await digestOf(remove(form({ id: randomUUID() })))).toMatch(/404/);
    const foreign = await createContact(other.db, other.org.id, ContactCreate.parse({ type: 'particulier', last_name: 'Ailleurs' }));
    expect(await digestOf(remove(form({ id: foreign.id })))).toMatch(/404/);
    expect((await getContact(other.db, other.org.id, foreign.id)).deleted_at).toBeNull();
    await expect(remove(form({ id: 'not-an-id' }))).rejects.toBeInstanceOf(z.ZodError);
    const contact = await createContact(org.db, org.org.id, ContactCreate.parse({ type: 'particulier', last_name: 'Soleil' }));
    await expect(remove(form({ id: contact.id }))).resolves.toBeUndefined();
    expect((await getContact(org.db, org.org.id, contact.id)).deleted_at).not.toBeNull();
  });
});
