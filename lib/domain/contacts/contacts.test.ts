import { beforeAll, describe, expect, it } from 'vitest';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { consentsOf, eventsOf, newContact, routes, rowOf, rowsOf } from './testing';

let org: TestOrg;
let token: string;
beforeAll(async () => {
  org = await createTestOrg();
  token = await org.key();
});

const create = (body: unknown, t = token) => call(routes.create, 'POST', '/v1/contacts', { token: t, body });
const patch = (id: string, body: unknown) => call(routes.patch, 'PATCH', `/v1/contacts/${id}`, { token, params: { id }, body });

describe('POST /v1/contacts', () => {
  it('creates a contact with the defaults and answers the read representation', async () => {
    const res = await create({ company: 'Acme' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      type: 'professionnel',
      display_name: 'Acme',
      first_name: null,
      last_name: null,
      company: 'Acme',
      email: null,
      phone: null,
      address: null,
      city: null,
      postal_code: null,
      country: 'FR',
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
      deleted_at: null,
      erased_at: null,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
    });
    const row = await rowOf(org, res.body.id);
    expect(row).toMatchObject({ org_id: org.org.id, company: 'Acme', type: 'professionnel', country: 'FR', tags: [] });
  });

  it('normalizes every field the spec constrains', async () => {
    const res = await create({
      type: 'particulier',
      first_name: '  Jeanne ',
      last_name: 'Martin',
      company: '',
      email: '  Jeanne.Martin@Example.FR ',
      country: 'be',
      siret: '732 829 320 00074',
      vat_intra: 'fr 44 732829320',
      preferred_language: 'EN',
      lead_status: 'qualified',
      lead_score: 100,
      reminder_opt_out: true,
      tags: [' vip ', 'b2c', 'vip', '', '   ', 'b2c'],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      type: 'particulier',
      first_name: 'Jeanne',
      company: null,
      display_name: 'Jeanne Martin',
      email: 'jeanne.martin@example.fr',
      country: 'BE',
      siret: '73282932000074',
      siren: '732829320',
      vat_intra: 'FR44732829320',
      preferred_language: 'en',
      lead_status: 'qualified',
      lead_score: 100,
      reminder_opt_out: true,
      tags: ['vip', 'b2c'],
    });
    expect(await rowOf(org, res.body.id)).toMatchObject({ email: 'jeanne.martin@example.fr', siren: '732829320', tags: ['vip', 'b2c'] });
  });

  it('uses the company as display name when there is one, and accepts explicit nulls as defaults', async () => {
    const res = await create({ type: null, country: null, tags: null, reminder_opt_out: null, first_name: 'Paul', company: 'Paul SARL', lead_score: 0 });
    expect(res.body).toMatchObject({ type: 'professionnel', country: 'FR', tags: [], reminder_opt_out: false, display_name: 'Paul SARL', lead_score: 0 });
  });

  const invalid: Array<[string, Record<string, unknown>, string]> = [
    ['type outside the enum', { company: 'A', type: 'entreprise' }, 'type'],
    ['malformed e-mail', { company: 'A', email: 'jeanne@' }, 'email'],
    ['e-mail not a string', { company: 'A', email: 42 }, 'email'],
    ['e-mail longer than 254 characters', { company: 'A', email: `${'a'.repeat(64)}@${'b'.repeat(187)}.fr` }, 'email'],
    ['country of three letters', { company: 'A', country: 'FRA' }, 'country'],
    ['country code not assigned', { company: 'A', country: 'XX' }, 'country'],
    ['SIRET of 13 digits', { company: 'A', siret: '7328293200007' }, 'siret'],
    ['SIRET with letters', { company: 'A', siret: '7328293200007A' }, 'siret'],
    ['VAT number outside the EU', { company: 'A', vat_intra: 'US123456789' }, 'vat_intra'],
    ['VAT number too short', { company: 'A', vat_intra: 'FR1' }, 'vat_intra'],
    ['lead_score above 100', { company: 'A', lead_score: 101 }, 'lead_score'],
    ['lead_score below 0', { company: 'A', lead_score: -1 }, 'lead_score'],
    ['lead_score not an integer', { company: 'A', lead_score: 4.5 }, 'lead_score'],
    ['lead_score as a string', { company: 'A', lead_score: '40' }, 'lead_score'],
    ['lead_status outside the enum', { company: 'A', lead_status: 'hot' }, 'lead_status'],
    ['preferred_language outside the enum', { company: 'A', preferred_language: 'de' }, 'preferred_language'],
    ['reminder_opt_out not a boolean', { company: 'A', reminder_opt_out: 'yes' }, 'reminder_opt_out'],
    ['marketing_consent not a boolean', { company: 'A', marketing_consent: 1 }, 'marketing_consent'],
    ['tags not an array', { company: 'A', tags: 'vip' }, 'tags'],
    ['a tag not a string', { company: 'A', tags: ['ok', 3] }, 'tags.1'],
    ['a tag too long', { company: 'A', tags: ['x'.repeat(65)] }, 'tags.0'],
    ['first name too long', { company: 'A', first_name: 'x'.repeat(201) }, 'first_name'],
    ['a NUL character', { company: 'A', notes: 'a\u0000b' }, 'notes'],
    ['an unknown key', { company: 'A', emial: 'a@b.fr' }, 'emial'],
    ['no name nor company (business)', { email: 'a@b.fr' }, 'company'],
    ['no name nor company (person)', { type: 'particulier', first_name: '  ', company: null }, 'last_name'],
  ];
  it.each(invalid)('refuses %s with 422 and its field, writing nothing', async (_, body, field) => {
    const before = (await rowsOf(org)).length;
    const res = await create(body);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ code: 'validation_error', message: expect.stringContaining(field), field });
    expect((await rowsOf(org)).length).toBe(before);
  });

  it('refuses a body that is not an object', async () => {
    const res = await create(['company']);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_error');
  });

  it('writes contact.created in the outbox with the representation', async () => {
    const contact = await newContact(org, { company: 'Evented' });
    const [event] = (await eventsOf(org, 'contact.created')).filter((e) => (e.payload as { object: { id: string } }).object.id === contact.id);
    expect(event?.payload).toEqual({ object: contact });
  });
});

describe('GET /v1/contacts', () => {
  let lister: TestOrg;
  let ids: Record<string, string>;
  beforeAll(async () => {
    lister = await createTestOrg();
    const make = async (body: Record<string, unknown>) => (await newContact(lister, body)).id as string;
    ids = {
      elodie: await make({ type: 'particulier', first_name: 'Élodie', last_name: 'Dupré', lead_status: 'won', tags: ['vip'] }),
      acme: await make({ company: 'ACME Industries', email: 'contact@acme.example', lead_status: 'new', tags: ['b2b', 'vip'] }),
      percent: await make({ company: '100% Bio', lead_status: 'new' }),
      other: await make({ type: 'particulier', last_name: 'Martin', email: 'jm@example.org' }),
      gone: await make({ company: 'Gone Corp', tags: ['vip'] }),
    };
    await call(routes.delete, 'DELETE', '/v1/contacts/x', { token: await lister.key(), params: { id: ids.gone! } });
  });
  const list = async (query: Record<string, string | number | boolean>) => {
    const res = await call(routes.list, 'GET', '/v1/contacts', { token: await lister.key(['contacts:read']), query });
    expect(res.status).toBe(200);
    return res.body.data.map((c: { id: string }) => c.id);
  };

  it('lists live contacts newest first', async () => {
    expect(await list({})).toEqual([ids.other, ids.percent, ids.acme, ids.elodie]);
  });

  it('includes deleted contacts on include_deleted=true only', async () => {
    expect(await list({ include_deleted: true })).toEqual([ids.gone, ids.other, ids.percent, ids.acme, ids.elodie]);
    expect(await list({ include_deleted: false })).not.toContain(ids.gone);
  });

  it('searches q over names, company and e-mail, ignoring case and accents', async () => {
    expect(await list({ q: 'elodie' })).toEqual([ids.elodie]);
    expect(await list({ q: 'DUPRE' })).toEqual([ids.elodie]);
    expect(await list({ q: 'industries' })).toEqual([ids.acme]);
    expect(await list({ q: 'acme.example' })).toEqual([ids.acme]);
    expect(await list({ q: 'martin' })).toEqual([ids.other]);
    expect(await list({ q: 'nobody' })).toEqual([]);
  });

  it('matches LIKE wildcards in q literally', async () => {
    expect(await list({ q: '100%' })).toEqual([ids.percent]);
    expect(await list({ q: '%' })).toEqual([ids.percent]);
    expect(await list({ q: '_' })).toEqual([]);
  });

  it('filters by type, lead_status and tag, combined', async () => {
    expect(await list({ type: 'particulier' })).toEqual([ids.other, ids.elodie]);
    expect(await list({ lead_status: 'new' })).toEqual([ids.percent, ids.acme]);
    expect(await list({ tag: 'vip' })).toEqual([ids.acme, ids.elodie]);
    expect(await list({ tag: 'vip', type: 'professionnel' })).toEqual([ids.acme]);
    expect(await list({ tag: 'vip', include_deleted: true })).toEqual([ids.gone, ids.acme, ids.elodie]);
  });

  it('paginates with a cursor', async () => {
    const token = await lister.key();
    const first = await call(routes.list, 'GET', '/v1/contacts', { token, query: { limit: 3 } });
    expect(first.body.data.map((c: { id: string }) => c.id)).toEqual([ids.other, ids.percent, ids.acme]);
    const second = await call(routes.list, 'GET', '/v1/contacts', { token, query: { limit: 3, cursor: first.body.meta.next_cursor } });
    expect(second.body.data.map((c: { id: string }) => c.id)).toEqual([ids.elodie]);
    expect(second.body.meta.next_cursor).toBeNull();
  });

  it("never shows another org's contacts", async () => {
    const res = await call(routes.list, 'GET', '/v1/contacts', { token, query: { q: 'acme industries' } });
    expect(res.body.data).toEqual([]);
  });

  it.each([
    [{ type: 'company' }, 'type'],
    [{ lead_status: 'hot' }, 'lead_status'],
    [{ include_deleted: 'maybe' }, 'include_deleted'],
    [{ q: '   ' }, 'q'],
    [{ limit: 101 }, 'limit'],
    [{ limit: 0 }, 'limit'],
    // PostgreSQL cannot hold a NUL character: a 422, not the 500 of a failed query.
    [{ q: 'a\u0000b' }, 'q'],
    [{ tag: 'vip\u0000' }, 'tag'],
  ])('refuses the query %j with 422 on %s', async (query, field) => {
    const res = await call(routes.list, 'GET', '/v1/contacts', { token, query });
    expect(res.status).toBe(422);
    expect(res.body.field).toBe(field);
  });
});

describe('GET /v1/contacts/{id}', () => {
  it('answers the contact', async () => {
    const contact = await newContact(org, { company: 'Readable' });
    const res = await call(routes.get, 'GET', '/v1/contacts/x', { token: await org.key(['contacts:read']), params: { id: contact.id } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(contact);
  });
});

describe('PATCH /v1/contacts/{id}', () => {
  it('leaves omitted keys unchanged and clears explicit nulls', async () => {
    const contact = await newContact(org, {
      first_name: 'Léa',
      last_name: 'Roux',
      company: 'Roux Conseil',
      phone: '+33 1 23 45 67 89',
      city: 'Lyon',
      siret: '73282932000074',
      type: 'particulier',
      country: 'BE',
      tags: ['a'],
      reminder_opt_out: true,
      lead_score: 50,
    });
    const res = await patch(contact.id, {
      phone: null,
      siret: null,
      lead_score: null,
      type: null,
      country: null,
      tags: null,
      reminder_opt_out: null,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      first_name: 'Léa',
      company: 'Roux Conseil',
      city: 'Lyon',
      phone: null,
      siret: null,
      siren: null,
      lead_score: null,
      type: 'professionnel',
      country: 'FR',
      tags: [],
      reminder_opt_out: false,
    });
    expect(res.body.updated_at > contact.updated_at).toBe(true);
    expect(await rowOf(org, contact.id)).toMatchObject({ phone: null, siret: null, siren: null, city: 'Lyon', tags: [] });
  });

  it('normalizes like the create, re-derives the SIREN and updates the display name', async () => {
    const contact = await newContact(org, { company: 'Before' });
    const res = await patch(contact.id, { siret: '552 100 554 00013', email: ' X@Y.FR ', tags: ['b', ' b ', 'c'], company: 'After' });
    expect(res.body).toMatchObject({ siret: '55210055400013', siren: '552100554', email: 'x@y.fr', tags: ['b', 'c'], display_name: 'After' });
  });

  it('refuses a patch that leaves no name nor company, on the field of the type', async () => {
    const business = await newContact(org, { company: 'Only company' });
    const res = await patch(business.id, { company: null });
    expect(res.status).toBe(422);
    expect(res.body.field).toBe('company');
    const person = await newContact(org, { type: 'particulier', last_name: 'Seul' });
    const res2 = await patch(person.id, { last_name: '' });
    expect(res2.body.field).toBe('last_name');
    expect((await rowOf(org, person.id))?.last_name).toBe('Seul');
  });

  it('refuses invalid values and unknown keys with their field', async () => {
    const contact = await newContact(org, { company: 'Strict' });
    for (const [body, field] of [
      [{ lead_score: 101 }, 'lead_score'],
      [{ email: 'x' }, 'email'],
      [{ id: contact.id }, 'id'],
      [{ deleted_at: null }, 'deleted_at'],
    ] as const) {
      const res = await patch(contact.id, body);
      expect(res.status).toBe(422);
      expect(res.body.field).toBe(field);
    }
  });

  it('writes contact.updated, and nothing when nothing changes', async () => {
    const contact = await newContact(org, { company: 'Quiet', city: 'Nantes' });
    const count = async () => (await eventsOf(org, 'contact.updated')).filter((e) => JSON.stringify(e.payload).includes(contact.id)).length;
    const same = await patch(contact.id, { city: 'Nantes', company: ' Quiet ' });
    expect(same.status).toBe(200);
    expect(same.body.updated_at).toBe(contact.updated_at);
    expect(await count()).toBe(0);
    const changed = await patch(contact.id, { city: 'Rennes' });
    expect(await count()).toBe(1);
    const [event] = (await eventsOf(org, 'contact.updated')).filter((e) => JSON.stringify(e.payload).includes(contact.id));
    expect(event?.payload).toEqual({ object: changed.body });
  });

  it('refuses to change a deleted contact (409 contact_deleted)', async () => {
    const contact = await newContact(org, { company: 'Deleted' });
    await call(routes.delete, 'DELETE', '/v1/contacts/x', { token, params: { id: contact.id } });
    const res = await patch(contact.id, { city: 'Paris' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('contact_deleted');
  });
});

describe('consent history', () => {
  it('records the initial consent and every change of marketing_consent, with source and legal basis', async () => {
    const contact = await newContact(org, { company: 'Consenting', marketing_consent: true, consent_source: 'web form', legal_basis: 'consent' });
    expect(contact.consent_updated_at).toEqual(expect.any(String));
    expect(await consentsOf(org, contact.id)).toMatchObject([{ marketing_consent: true, source: 'web form', legal_basis: 'consent' }]);

    await patch(contact.id, { notes: 'no consent change', consent_source: 'web form v2' });
    expect(await consentsOf(org, contact.id)).toHaveLength(1);

    const withdrawn = await patch(contact.id, { marketing_consent: false, consent_source: 'unsubscribe link' });
    expect(withdrawn.body).toMatchObject({ marketing_consent: false, consent_source: 'unsubscribe link', legal_basis: 'consent' });
    expect(withdrawn.body.consent_updated_at > contact.consent_updated_at).toBe(true);

    await patch(contact.id, { marketing_consent: false });
    await patch(contact.id, { marketing_consent: null });
    const history = await consentsOf(org, contact.id);
    expect(history.map((h) => [h.marketing_consent, h.source, h.legal_basis])).toEqual([
      [true, 'web form', 'consent'],
      [false, 'unsubscribe link', 'consent'],
      [null, 'unsubscribe link', 'consent'],
    ]);
    expect(history[1]!.changed_at.toISOString()).toBe(withdrawn.body.consent_updated_at);
  });

  it('keeps no history for a contact created without a consent state', async () => {
    const contact = await newContact(org, { company: 'Silent' });
    expect(contact.consent_updated_at).toBeNull();
    expect(await consentsOf(org, contact.id)).toEqual([]);
  });
});

describe('DELETE /v1/contacts/{id} and POST /v1/contacts/{id}/restore', () => {
  it('soft-deletes (200 with deleted_at), hides from the list, and restores', async () => {
    const contact = await newContact(org, { company: 'Phoenix' });
    const del = await call(routes.delete, 'DELETE', '/v1/contacts/x', { token, params: { id: contact.id } });
    expect(del.status).toBe(200);
    expect(del.body.deleted_at).toEqual(expect.any(String));
    expect((await rowOf(org, contact.id))?.deleted_at).toBeInstanceOf(Date);

    const listed = await call(routes.list, 'GET', '/v1/contacts', { token, query: { q: 'phoenix' } });
    expect(listed.body.data).toEqual([]);
    const got = await call(routes.get, 'GET', '/v1/contacts/x', { token, params: { id: contact.id } });
    expect(got.body.deleted_at).toBe(del.body.deleted_at);

    const again = await call(routes.delete, 'DELETE', '/v1/contacts/x', { token, params: { id: contact.id } });
    expect(again.status).toBe(200);
    expect(again.body.deleted_at).toBe(del.body.deleted_at);

    const restored = await call(routes.restore, 'POST', '/v1/contacts/x/restore', { token, params: { id: contact.id } });
    expect(restored.status).toBe(200);
    expect(restored.body.deleted_at).toBeNull();
    expect((await rowOf(org, contact.id))?.deleted_at).toBeNull();
    const relisted = await call(routes.list, 'GET', '/v1/contacts', { token, query: { q: 'phoenix' } });
    expect(relisted.body.data.map((c: { id: string }) => c.id)).toEqual([contact.id]);

    const liveRestore = await call(routes.restore, 'POST', '/v1/contacts/x/restore', { token, params: { id: contact.id } });
    expect(liveRestore.status).toBe(200);

    const mine = async (type: string) => (await eventsOf(org, type)).filter((e) => JSON.stringify(e.payload).includes(contact.id));
    expect(await mine('contact.deleted')).toHaveLength(1);
    expect(await mine('contact.restored')).toHaveLength(1);
    expect((await mine('contact.restored'))[0]?.payload).toEqual({ object: restored.body });
  });
});
