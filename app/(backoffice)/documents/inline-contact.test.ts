import { beforeAll, describe, expect, it } from 'vitest';
import { getContact, listContacts } from '@/lib/domain/contacts';
import { createActionWrappers, type StaffSession } from '@/lib/platform/next';
import { addMembership, createUser } from '@/lib/platform/orgs';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { createInlineContact } from './inline-contact';

// The editor's "Créer « … »" is this handler in the action wrapper (actions.ts), run under a given session.
let session: StaffSession = null;
const { staffAction } = createActionWrappers(async () => session);
const create = staffAction(createInlineContact);

let org: TestOrg;
let other: TestOrg;
beforeAll(async () => {
  org = await createTestOrg();
  other = await createTestOrg();
  const user = await createUser(org.db, { email: `inline-${org.org.id}@example.fr`, password: 'long enough password' });
  await addMembership(org.db, org.org.id, user.id, 'member');
  session = { userId: user.id, orgId: org.org.id };
});

describe('a client created from the editor', () => {
  it('creates a business with its SIRET (SIREN deduced) in the staff member’s org, answered as the picker’s choice', async () => {
    const choice = await create({ name: ' Dupont SARL ', type: 'professionnel', email: 'compta@dupont.fr', siret: '732 829 320 00074' });
    expect(choice).toEqual({ id: expect.any(String), name: 'Dupont SARL', detail: 'compta@dupont.fr', default_payment_terms: null, default_discount_terms: null });
    const stored = await getContact(org.db, org.org.id, (choice as { id: string }).id);
    expect(stored).toMatchObject({ type: 'professionnel', company: 'Dupont SARL', email: 'compta@dupont.fr', siret: '73282932000074', siren: '732829320' });
    await expect(getContact(other.db, other.org.id, stored.id)).rejects.toMatchObject({ status: 404 });
  });

  it('splits a person’s name into first and last name, and ignores a SIRET for a person', async () => {
    const choice = (await create({ name: 'Jeanne de la Tour', type: 'particulier', siret: '123' })) as { id: string; name: string };
    expect(choice.name).toBe('Jeanne de la Tour');
    expect(await getContact(org.db, org.org.id, choice.id)).toMatchObject({ type: 'particulier', first_name: 'Jeanne', last_name: 'de la Tour', company: null, siret: null });
  });

  it('refuses a wrong SIRET key, a bad e-mail or no name, in French, creating nothing', async () => {
    const before = (await listContacts(org.db, org.org.id, { limit: 100, include_deleted: true })).data.length;
    expect(await create({ name: 'Martin SA', type: 'professionnel', siret: '73282932000075' })).toEqual({
      refused: true,
      errors: { siret: 'Ce SIRET n’existe pas : sa clé de contrôle est fausse (vérifiez les 14 chiffres).' },
    });
    expect(await create({ name: 'Martin SA', type: 'professionnel', email: 'pas-une-adresse' })).toMatchObject({ refused: true, errors: { email: expect.any(String) } });
    expect(await create({ name: '   ', type: 'professionnel' })).toMatchObject({ refused: true, errors: { name: expect.any(String) } });
    expect((await listContacts(org.db, org.org.id, { limit: 100, include_deleted: true })).data.length).toBe(before);
  });
});
