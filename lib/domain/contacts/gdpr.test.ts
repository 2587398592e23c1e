import { beforeAll, describe, expect, it } from 'vitest';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { contactReferences } from './references';
import { consentsOf, eventsOf, newContact, routes, rowOf } from './testing';

let org: TestOrg;
let token: string;
beforeAll(async () => {
  org = await createTestOrg();
  token = await org.key();
});

const PERSON = {
  type: 'particulier',
  first_name: 'Camille',
  last_name: 'Secret',
  company: 'Secret Conseil',
  email: 'camille.secret@example.fr',
  phone: '+33 6 00 00 00 00',
  address: '1 rue Cachée',
  city: 'Lille',
  postal_code: '59000',
  country: 'BE',
  siret: '73282932000074',
  vat_intra: 'BE0123456789',
  default_payment_terms: '30 days',
  default_discount_terms: 'none',
  preferred_language: 'fr',
  reminder_opt_out: true,
  marketing_consent: true,
  consent_source: 'fair stand',
  legal_basis: 'consent',
  lead_status: 'won',
  lead_score: 80,
  notes: 'allergic to spam',
  tags: ['vip'],
};

describe('POST /v1/contacts/{id}/erase', () => {
  it('nulls every personal field irreversibly, keeps a tombstone, scrubs history and past events', async () => {
    const contact = await newContact(org, PERSON);
    await call(routes.patch, 'PATCH', '/v1/contacts/x', { token, params: { id: contact.id }, body: { marketing_consent: false } });
    const source = await newContact(org, { type: 'particulier', first_name: 'Camille', last_name: 'Secret', email: 'camille@perso.example' });
    await call(routes.merge, 'POST', '/v1/contacts/x/merge', { token, params: { id: contact.id }, body: { source_ids: [source.id] } });

    const res = await call(routes.erase, 'POST', '/v1/contacts/x/erase', { token, params: { id: contact.id } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: contact.id,
      type: 'particulier',
      display_name: null,
      first_name: null,
      last_name: null,
      company: null,
      email: null,
      phone: null,
      address: null,
      city: null,
      postal_code: null,
      country: 'BE',
      siret: null,
      siren: null,
      vat_intra: null,
      default_payment_terms: null,
      default_discount_terms: null,
      preferred_language: null,
      reminder_opt_out: false,
      marketing_consent: null,
      consent_source: null,
      legal_basis: null,
      consent_updated_at: null,
      lead_status: null,
      lead_score: null,
      notes: null,
      tags: [],
      merged_into_id: null,
      deleted_at: expect.any(String),
      erased_at: expect.any(String),
      created_at: contact.created_at,
      updated_at: expect.any(String),
    });

    const row = await rowOf(org, contact.id);
    expect(row?.erased_at).toBeInstanceOf(Date);
    expect(row?.search?.trim()).toBe('');
    expect(row?.name_key).toBeNull();
    expect(await consentsOf(org, contact.id)).toEqual([]);

    // The contact merged into it is the same person: erased with it.
    const sourceRow = await rowOf(org, source.id);
    expect(sourceRow).toMatchObject({ email: null, first_name: null, merged_into_id: contact.id });
    expect(sourceRow?.erased_at).toBeInstanceOf(Date);

    // Nothing personal survives in the outbox either.
    const outbox = JSON.stringify(await eventsOf(org));
    for (const value of ['Camille', 'Secret', 'camille', '59000', 'allergic', '73282932000074', 'fair stand']) expect(outbox).not.toContain(value);
    const erased = await eventsOf(org, 'contact.erased');
    expect(erased.map((e) => (e.payload as { object: { id: string } }).object.id)).toEqual([source.id, contact.id]);
    expect(erased.at(-1)?.payload).toEqual({ object: res.body });

    // Irreversible: no restore, no change; erasing again answers the tombstone without a new event.
    const restore = await call(routes.restore, 'POST', '/v1/contacts/x/restore', { token, params: { id: contact.id } });
    expect(restore.status).toBe(409);
    expect(restore.body.code).toBe('contact_erased');
    const patch = await call(routes.patch, 'PATCH', '/v1/contacts/x', { token, params: { id: contact.id }, body: { first_name: 'Back' } });
    expect(patch.status).toBe(409);
    expect(patch.body.code).toBe('contact_erased');
    const again = await call(routes.erase, 'POST', '/v1/contacts/x/erase', { token, params: { id: contact.id } });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(res.body);
    expect(await eventsOf(org, 'contact.erased')).toHaveLength(2);

    const got = await call(routes.get, 'GET', '/v1/contacts/x', { token, params: { id: contact.id } });
    expect(got.body).toEqual(res.body);
    const listed = await call(routes.list, 'GET', '/v1/contacts', { token, query: { include_deleted: true } });
    expect(listed.body.data.map((c: { id: string }) => c.id)).toContain(contact.id);
  });

  it('answers the erased contact itself, its event last, whatever the case of the id in the path', async () => {
    const contact = await newContact(org, { company: 'Upper case' });
    const source = await newContact(org, { company: 'Merged in' });
    await call(routes.merge, 'POST', '/v1/contacts/x/merge', { token, params: { id: contact.id }, body: { source_ids: [source.id] } });

    const res = await call(routes.erase, 'POST', '/v1/contacts/x/erase', { token, params: { id: contact.id.toUpperCase() } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: contact.id, merged_into_id: null, erased_at: expect.any(String) });
    const erased = (await eventsOf(org, 'contact.erased')).map((e) => (e.payload as { object: { id: string } }).object.id);
    expect(erased.slice(-2)).toEqual([source.id, contact.id]);
  });

  it('leaves other contacts untouched', async () => {
    const keep = await newContact(org, { company: 'Keep me', email: 'keep@example.fr' });
    const gone = await newContact(org, { company: 'Erase me', email: 'gone@example.fr' });
    await call(routes.erase, 'POST', '/v1/contacts/x/erase', { token, params: { id: gone.id } });
    const row = await rowOf(org, keep.id);
    expect(row).toMatchObject({ company: 'Keep me', email: 'keep@example.fr', erased_at: null });
    const created = (await eventsOf(org, 'contact.created')).find((e) => (e.payload as { object: { id: string } }).object.id === keep.id);
    expect(created?.payload).toEqual({ object: keep });
  });
});

describe('GET /v1/contacts/{id}/export', () => {
  it('downloads everything held about the contact as a JSON attachment', async () => {
    const contact = await newContact(org, PERSON);
    await call(routes.patch, 'PATCH', '/v1/contacts/x', {
      token,
      params: { id: contact.id },
      body: { marketing_consent: false, consent_source: 'phone call', legal_basis: 'withdrawal' },
    });
    const source = await newContact(org, { company: 'Secret Conseil', email: 'old@example.fr' });
    await call(routes.merge, 'POST', '/v1/contacts/x/merge', { token, params: { id: contact.id }, body: { source_ids: [source.id] } });

    const res = await call(routes.export, 'GET', `/v1/contacts/${contact.id}/export`, { token: await org.key(['contacts:read']), params: { id: contact.id } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="contact-${contact.id}.json"`);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const current = await call(routes.get, 'GET', '/v1/contacts/x', { token, params: { id: contact.id } });
    expect(res.body).toEqual({
      format: 'paraphe.contact-export.v1',
      exported_at: expect.any(String),
      contact: current.body,
      consent_history: [
        { marketing_consent: true, source: 'fair stand', legal_basis: 'consent', changed_at: contact.consent_updated_at },
        { marketing_consent: false, source: 'phone call', legal_basis: 'withdrawal', changed_at: expect.any(String) },
      ],
      merged_contacts: [expect.objectContaining({ id: source.id, email: 'old@example.fr', merged_into_id: contact.id })],
      // Every exported reference of other modules, empty for this contact.
      related: Object.fromEntries(contactReferences().filter((ref) => ref.export !== false).map((ref) => [ref.resource, []])),
    });
  });

  it('exports an erased contact as the tombstone, with no history', async () => {
    const contact = await newContact(org, { company: 'Short-lived', marketing_consent: true });
    await call(routes.erase, 'POST', '/v1/contacts/x/erase', { token, params: { id: contact.id } });
    const res = await call(routes.export, 'GET', '/v1/contacts/x/export', { token, params: { id: contact.id } });
    expect(res.body.contact).toMatchObject({ company: null, erased_at: expect.any(String) });
    expect(res.body.consent_history).toEqual([]);
  });
});
