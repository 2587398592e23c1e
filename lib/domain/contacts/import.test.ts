import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { getDatabase } from '@/db/client';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { consentsOf, eventsOf, newContact, routes, rowsOf } from './testing';

const importRows = async (org: TestOrg, contacts: unknown) =>
  call(routes.import, 'POST', '/v1/contacts/import', { token: await org.key(['contacts:write']), body: { contacts } });

describe('POST /v1/contacts/import', () => {
  it('answers an empty summary for an empty array', async () => {
    const org = await createTestOrg();
    const res = await importRows(org, []);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ created: 0, created_ids: [], skipped: 0, errors: [] });
    expect(await rowsOf(org)).toEqual([]);
  });

  it('imports 1000 rows, ids in input order, one contact.created event each', async () => {
    const org = await createTestOrg();
    const rows = Array.from({ length: 1000 }, (_, i) => ({ company: `Company ${i}`, email: `c${i}@example.fr`, tags: ['import'] }));
    const res = await importRows(org, rows);
    expect(res.status).toBe(200);
    expect(res.body.created).toBe(1000);
    expect(res.body.skipped).toBe(0);
    expect(res.body.errors).toEqual([]);
    const stored = await rowsOf(org);
    expect(stored).toHaveLength(1000);
    const byId = new Map(stored.map((r) => [r.id, r]));
    expect(res.body.created_ids.map((id: string) => byId.get(id)?.company)).toEqual(rows.map((r) => r.company));
    expect((await eventsOf(org, 'contact.created')).length).toBe(1000);
  });

  it('refuses 1001 rows with 413 batch_too_large and writes nothing', async () => {
    const org = await createTestOrg();
    const res = await importRows(
      org,
      Array.from({ length: 1001 }, (_, i) => ({ company: `Company ${i}` })),
    );
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ code: 'batch_too_large', message: expect.stringContaining('1000'), field: 'contacts' });
    expect(await rowsOf(org)).toEqual([]);
    expect(await eventsOf(org)).toEqual([]);
  });

  it('validates rows independently, skips e-mail duplicates (org and batch, any case), reports errors in order', async () => {
    const org = await createTestOrg();
    const existing = await newContact(org, { company: 'Existing', email: 'taken@example.fr' });
    const deleted = await newContact(org, { company: 'Deleted', email: 'free-again@example.fr' });
    await call(routes.delete, 'DELETE', '/v1/contacts/x', { token: await org.key(), params: { id: deleted.id } });

    const res = await importRows(org, [
      /* 0 */ { company: 'Dup of org', email: '  TAKEN@Example.fr ' },
      /* 1 */ { company: 'First B', email: 'b@example.fr' },
      /* 2 */ { company: 'Second B', email: 'B@EXAMPLE.FR' },
      /* 3 */ 'not an object',
      /* 4 */ { company: 'No e-mail' },
      /* 5 */ { email: 'c@example.fr' },
      /* 6 */ { company: 'C after an invalid C', email: 'c@example.fr' },
      /* 7 */ null,
      /* 8 */ [{ company: 'in an array' }],
      /* 9 */ { company: 'Bad mail', email: 'nope@' },
      /* 10 */ { company: 'Of a deleted contact', email: 'free-again@example.fr' },
      /* 11 */ { company: 'Second no e-mail' },
      /* 12 */ { company: 'Bad score', lead_score: 101 },
      /* 13 */ 42,
    ]);
    expect(res.status).toBe(200);
    expect(res.body.errors).toEqual([
      { index: 3, reason: 'row is not an object' },
      { index: 5, reason: expect.stringMatching(/^company: no name nor company/) },
      { index: 7, reason: 'row is not an object' },
      { index: 8, reason: 'row is not an object' },
      { index: 9, reason: 'email: malformed e-mail' },
      { index: 12, reason: 'lead_score: must be between 0 and 100' },
      { index: 13, reason: 'row is not an object' },
    ]);
    expect(res.body.skipped).toBe(2);
    expect(res.body.created).toBe(5);
    expect(res.body.created_ids).toHaveLength(5);

    const stored = await rowsOf(org);
    const byId = new Map(stored.map((r) => [r.id, r]));
    expect(res.body.created_ids.map((id: string) => byId.get(id)?.company)).toEqual([
      'First B',
      'No e-mail',
      'C after an invalid C',
      'Of a deleted contact',
      'Second no e-mail',
    ]);
    expect(byId.get(res.body.created_ids[0])?.email).toBe('b@example.fr');
    expect(stored.filter((r) => r.email === 'taken@example.fr').map((r) => r.id)).toEqual([existing.id]);
    expect(stored).toHaveLength(7);
  });

  it('stores rows normalized, with their consent history and events', async () => {
    const org = await createTestOrg();
    const res = await importRows(org, [
      { type: 'particulier', first_name: 'Anne', last_name: 'Morel', email: ' Anne@Morel.FR ', siret: '732 829 320 00074', tags: [' a ', 'a'], marketing_consent: true, consent_source: 'salon', legal_basis: 'consent' },
    ]);
    const [id] = res.body.created_ids;
    const [row] = await rowsOf(org);
    expect(row).toMatchObject({ id, email: 'anne@morel.fr', siren: '732829320', tags: ['a'], country: 'FR', marketing_consent: true });
    expect(await consentsOf(org, id)).toMatchObject([{ marketing_consent: true, source: 'salon', legal_basis: 'consent' }]);
    const [event] = await eventsOf(org, 'contact.created');
    expect(event?.payload).toMatchObject({ object: { id, display_name: 'Anne Morel', email: 'anne@morel.fr' } });
  });

  it('stores every field as given, so the contact reads back as its event says', async () => {
    const org = await createTestOrg();
    const token = await org.key();
    const full = {
      type: 'particulier',
      first_name: 'Zoé "Zézette"',
      last_name: "L'Héritier \\ Ñúñez 🎉",
      company: null,
      email: 'zoe@example.fr',
      phone: '+33 6 00 00 00 00',
      address: '1 rue du Puits\nBâtiment B',
      city: 'Saint-Étienne',
      postal_code: '42000',
      country: 'be',
      siret: '73282932000074',
      vat_intra: 'BE0123456789',
      default_payment_terms: '30 jours fin de mois',
      default_discount_terms: '2 % à 10 jours',
      preferred_language: 'EN',
      reminder_opt_out: true,
      marketing_consent: false,
      consent_source: 'téléphone',
      legal_basis: 'consent',
      lead_status: 'won',
      lead_score: 0,
      notes: 'a {json} [array] "quoted" \\u0041',
      tags: ['b', 'a', 'b', 'é'],
    };
    const res = await importRows(org, [full, { company: 'Bare' }]);
    expect(res.body).toMatchObject({ created: 2, errors: [] });
    const [id, bareId] = res.body.created_ids;
    const read = await call(routes.get, 'GET', '/v1/contacts/x', { token, params: { id } });
    expect(read.body).toMatchObject({ ...full, country: 'BE', preferred_language: 'en', siren: '732829320', tags: ['b', 'a', 'é'] });
    const events = await eventsOf(org, 'contact.created');
    expect(events.map((e) => (e.payload as { object: unknown }).object)).toEqual([
      read.body,
      (await call(routes.get, 'GET', '/v1/contacts/x', { token, params: { id: bareId } })).body,
    ]);
    expect(read.body).toMatchObject({ type: 'particulier', reminder_opt_out: true, deleted_at: null, merged_into_id: null, erased_at: null });
  });

  it('refuses an unpaired UTF-16 surrogate (jsonb cannot hold it) as a row error, like a create', async () => {
    const org = await createTestOrg();
    const res = await importRows(org, [{ company: 'A\ud800B' }, { company: 'Fine', tags: ['\udc00'] }, { company: 'Emoji 🎉' }]);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      created: 1,
      errors: [
        { index: 0, reason: 'company: contains an unpaired UTF-16 surrogate' },
        { index: 1, reason: 'tags.0: contains an unpaired UTF-16 surrogate' },
      ],
    });
    const single = await call(routes.create, 'POST', '/v1/contacts', { token: await org.key(), body: { company: 'A\ud800B' } });
    expect(single.status).toBe(422);
    expect(single.body).toMatchObject({ field: 'company' });
  });

  it('writes nothing when the database fails mid-batch', async () => {
    const org = await createTestOrg();
    const database = await getDatabase();
    const marker = `boom-${randomUUID()}`;
    const name = `paraphe_test_${marker.replaceAll('-', '_')}`;
    // A database failure (SQLSTATE XX000, internal error) at the last write of the import (the outbox), after the contacts and consents
    // are inserted: a trigger that raises for the marked row's event only.
    await database.sql(
      `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.payload->'object'->>'notes' = '${marker}' THEN RAISE EXCEPTION 'boom' USING ERRCODE = 'XX000'; END IF; RETURN NEW; END $$`,
    );
    await database.sql(`CREATE TRIGGER ${name} BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION ${name}()`);
    try {
      const res = await importRows(org, [{ company: 'Fine 1' }, { company: 'Fine 2', marketing_consent: true }, { company: 'Boom', notes: marker }]);
      expect(res.status).toBe(500);
      expect(res.body.code).toBe('internal_error');
    } finally {
      await database.sql(`DROP TRIGGER ${name} ON events`);
      await database.sql(`DROP FUNCTION ${name}()`);
    }
    expect(await rowsOf(org)).toEqual([]);
    expect(await eventsOf(org)).toEqual([]);
  });

  it('names the field when the body itself is wrong', async () => {
    const org = await createTestOrg();
    for (const [body, field] of [
      [{ contacts: 'a' }, 'contacts'],
      [{}, 'contacts'],
      [{ contacts: { company: 'A' } }, 'contacts'],
    ] as const) {
      const res = await call(routes.import, 'POST', '/v1/contacts/import', { token: await org.key(), body });
      expect(res.status).toBe(422);
      expect(res.body.field).toBe(field);
    }
  });

  it('replays an import sent again with the same Idempotency-Key', async () => {
    const org = await createTestOrg();
    const token = await org.key();
    const body = { contacts: [{ company: 'Once', email: 'once@example.fr' }] };
    const headers = { 'idempotency-key': 'import-1' };
    const first = await call(routes.import, 'POST', '/v1/contacts/import', { token, body, headers });
    const second = await call(routes.import, 'POST', '/v1/contacts/import', { token, body, headers });
    expect(second.body).toEqual(first.body);
    expect(await rowsOf(org)).toHaveLength(1);
  });
});

describe('control characters', () => {
  it('report the row that carries one in the summary, and import the others', async () => {
    const org = await createTestOrg();
    const res = await importRows(org, [{ company: 'Propre' }, { company: 'Sale\u0000' }, { company: 'Aussi\u0007' }]);
    expect(res.status).toBe(200);
    expect(res.body.created).toBe(1);
    expect(res.body.errors.map((e: { index: number; reason: string }) => [e.index, e.reason])).toEqual([
      [1, expect.stringContaining('control character')],
      [2, expect.stringContaining('control character')],
    ]);
  });
});
