import { beforeAll, describe, expect, it } from 'vitest';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { contactReferences } from './references';
import { consentsOf, eventsOf, newContact, routes, rowOf, rowsOf } from './testing';

type Group = { reasons: string[]; contacts: Array<{ id: string }> };
const idsOf = (g: Group) => g.contacts.map((c) => c.id).sort();

describe('GET /v1/contacts/duplicates', () => {
  let org: TestOrg;
  let c: Record<string, string>;
  beforeAll(async () => {
    org = await createTestOrg();
    const make = async (body: Record<string, unknown>) => (await newContact(org, body)).id as string;
    c = {
      mailA: await make({ company: 'Alpha', email: 'same@example.fr' }),
      mailB: await make({ type: 'particulier', last_name: 'Beta', email: ' SAME@example.FR' }),
      siretA: await make({ company: 'Gamma', siret: '73282932000074' }),
      siretB: await make({ company: 'Delta', siret: '732 829 320 00074', email: 'link@example.fr' }),
      linked: await make({ company: 'Epsilon', email: 'LINK@example.fr' }),
      nameA: await make({ company: 'Boulangerie Dupré & Fils', postal_code: '75002' }),
      nameB: await make({ company: '  boulangerie  DUPRE fils ', postal_code: '75 002' }),
      nameOtherTown: await make({ company: 'Boulangerie Dupré & Fils', postal_code: '69001' }),
      personA: await make({ type: 'particulier', first_name: 'Zoé', last_name: 'Lefèvre', postal_code: '33000' }),
      personB: await make({ type: 'particulier', first_name: 'zoe', last_name: 'LEFEVRE', postal_code: '33000' }),
      alone: await make({ company: 'Alone', email: 'alone@example.fr', siret: '55210055400013' }),
      deletedTwin: await make({ company: 'Alone bis', email: 'alone@example.fr' }),
    };
    await call(routes.delete, 'DELETE', '/v1/contacts/x', { token: await org.key(), params: { id: c.deletedTwin! } });
    // Another org holding the same e-mail is not a duplicate of anything here.
    const other = await createTestOrg();
    await newContact(other, { company: 'Elsewhere', email: 'alone@example.fr' });
  });

  it('groups live contacts by e-mail, SIRET and normalized name + postal code, linked groups united', async () => {
    const res = await call(routes.duplicates, 'GET', '/v1/contacts/duplicates', { token: await org.key(['contacts:read']) });
    expect(res.status).toBe(200);
    const groups: Group[] = res.body.data;
    expect(groups.map((g) => ({ reasons: g.reasons, ids: idsOf(g) }))).toEqual([
      { reasons: ['name_postal_code'], ids: [c.personA, c.personB].sort() },
      { reasons: ['name_postal_code'], ids: [c.nameA, c.nameB].sort() },
      { reasons: ['email', 'siret'], ids: [c.siretA, c.siretB, c.linked].sort() },
      { reasons: ['email'], ids: [c.mailA, c.mailB].sort() },
    ]);
    expect(res.body.meta.next_cursor).toBeNull();
    // Newest first inside a group too, with the full representation.
    expect(groups[2]!.contacts.map((x) => x.id)).toEqual([c.linked, c.siretB, c.siretA]);
    expect(groups[3]!.contacts[0]).toMatchObject({ id: c.mailB, email: 'same@example.fr', display_name: 'Beta' });
  });

  it('paginates groups with a cursor', async () => {
    const token = await org.key();
    const seen: string[][] = [];
    let cursor: string | undefined;
    do {
      const res = await call(routes.duplicates, 'GET', '/v1/contacts/duplicates', { token, query: { limit: 3, cursor } });
      expect(res.status).toBe(200);
      seen.push(...res.body.data.map(idsOf));
      cursor = res.body.meta.next_cursor ?? undefined;
    } while (cursor);
    expect(seen).toHaveLength(4);
  });

  it('drops a group once it is merged', async () => {
    const token = await org.key();
    const merged = await call(routes.merge, 'POST', '/v1/contacts/x/merge', { token, params: { id: c.mailA! }, body: { source_ids: [c.mailB] } });
    expect(merged.status).toBe(200);
    const res = await call(routes.duplicates, 'GET', '/v1/contacts/duplicates', { token });
    expect(res.body.data.map(idsOf)).not.toContainEqual([c.mailA, c.mailB].sort());
    expect(res.body.data).toHaveLength(3);
  });
});

describe('merge-preview and merge', () => {
  let org: TestOrg;
  let token: string;
  beforeAll(async () => {
    org = await createTestOrg();
    token = await org.key();
  });
  const preview = (id: string, body: unknown) => call(routes.mergePreview, 'POST', '/v1/contacts/x/merge-preview', { token, params: { id }, body });
  const merge = (id: string, body: unknown) => call(routes.merge, 'POST', '/v1/contacts/x/merge', { token, params: { id }, body });

  async function trio() {
    const target = await newContact(org, { company: 'Acme', tags: ['a', 'b'], city: 'Paris', lead_score: 10 });
    const s1 = await newContact(org, {
      company: 'ACME',
      email: 's1@acme.example',
      tags: ['b', 'c'],
      marketing_consent: true,
      consent_source: 'newsletter form',
      legal_basis: 'consent',
      city: 'Lyon',
    });
    const s2 = await newContact(org, { company: 'Acme SA', phone: '01 02 03 04 05', tags: ['d'], reminder_opt_out: true, siret: '73282932000074' });
    return { target, s1, s2 };
  }

  it('previews the merged contact and what would move, writing nothing', async () => {
    const { target, s1, s2 } = await trio();
    const before = await rowsOf(org);
    const eventsBefore = (await eventsOf(org)).length;
    const res = await preview(target.id, { source_ids: [s1.id, s2.id], fields: { company: s2.id } });
    expect(res.status).toBe(200);
    expect(res.body.contact).toMatchObject({
      id: target.id,
      company: 'Acme SA',
      display_name: 'Acme SA',
      email: 's1@acme.example',
      phone: '01 02 03 04 05',
      city: 'Paris',
      siret: '73282932000074',
      siren: '732829320',
      lead_score: 10,
      tags: ['a', 'b', 'c', 'd'],
      reminder_opt_out: true,
      marketing_consent: true,
      consent_source: 'newsletter form',
      legal_basis: 'consent',
      deleted_at: null,
    });
    expect(res.body.sources.map((s: { id: string; deleted_at: null }) => [s.id, s.deleted_at])).toEqual([
      [s1.id, null],
      [s2.id, null],
    ]);
    // One entry per registered reference that a merge moves (other modules add theirs), in the registry's order.
    expect(res.body.moves).toEqual(
      contactReferences()
        .filter((ref) => ref.merge !== false)
        .map((ref) => ({ resource: ref.resource, count: ref.resource === 'consent_history' ? 1 : 0 })),
    );
    expect(res.body.moves.map((m: { resource: string }) => m.resource)).not.toContain('sepa_mandates');
    expect(await rowsOf(org)).toEqual(before);
    expect((await eventsOf(org)).length).toBe(eventsBefore);
  });

  it('merges in one go: fields, united tags, moved consent history, soft-deleted sources, events', async () => {
    const { target, s1, s2 } = await trio();
    const previewed = await preview(target.id, { source_ids: [s1.id, s2.id], fields: { company: s2.id, city: s1.id } });
    const res = await merge(target.id, { source_ids: [s1.id, s2.id], fields: { company: s2.id, city: s1.id } });
    expect(res.status).toBe(200);
    const { updated_at, consent_updated_at, ...expected } = previewed.body.contact;
    expect(res.body.contact).toMatchObject(expected);
    expect(res.body.contact.city).toBe('Lyon');
    expect(res.body.moves).toEqual(previewed.body.moves);

    const row = await rowOf(org, target.id);
    expect(row).toMatchObject({ company: 'Acme SA', city: 'Lyon', email: 's1@acme.example', tags: ['a', 'b', 'c', 'd'], deleted_at: null, marketing_consent: true });
    for (const source of [s1, s2]) {
      const r = await rowOf(org, source.id);
      expect(r?.deleted_at).toBeInstanceOf(Date);
      expect(r?.merged_into_id).toBe(target.id);
    }
    expect(res.body.sources.map((s: { merged_into_id: string }) => s.merged_into_id)).toEqual([target.id, target.id]);

    // s1's consent record now belongs to the target, followed by the target's own change.
    expect(await consentsOf(org, s1.id)).toEqual([]);
    const history = await consentsOf(org, target.id);
    expect(history.map((h) => [h.marketing_consent, h.source])).toEqual([
      [true, 'newsletter form'],
      [true, 'newsletter form'],
    ]);

    const merged = (await eventsOf(org, 'contact.merged')).map((e) => (e.payload as { object: { id: string; merged_into_id: string } }).object);
    expect(merged.filter((o) => o.merged_into_id === target.id).map((o) => o.id)).toEqual([s1.id, s2.id]);
    const updated = (await eventsOf(org, 'contact.updated')).filter((e) => (e.payload as { object: { id: string } }).object.id === target.id);
    expect(updated.at(-1)?.payload).toEqual({ object: res.body.contact });

    // The merged sources leave the list, and cannot come back or be merged again.
    const list = await call(routes.list, 'GET', '/v1/contacts', { token, query: { q: 'acme' } });
    const listed = list.body.data.map((x: { id: string }) => x.id);
    expect(listed).toContain(target.id);
    expect(listed).not.toContain(s1.id);
    expect(listed).not.toContain(s2.id);
    const restore = await call(routes.restore, 'POST', '/v1/contacts/x/restore', { token, params: { id: s1.id } });
    expect(restore.status).toBe(409);
    expect(restore.body.code).toBe('contact_merged');
    const again = await merge(target.id, { source_ids: [s1.id] });
    expect(again.status).toBe(422);
    expect(again.body.field).toBe('source_ids.0');
  });

  it('repoints contacts merged earlier into a source, so merged_into_id never chains', async () => {
    const old = await newContact(org, { company: 'Old' });
    const middle = await newContact(org, { company: 'Middle' });
    const final = await newContact(org, { company: 'Final' });
    expect((await merge(middle.id, { source_ids: [old.id] })).status).toBe(200);
    const res = await merge(final.id, { source_ids: [middle.id] });
    expect(res.body.moves).toContainEqual({ resource: 'merged_contacts', count: 1 });
    expect((await rowOf(org, old.id))?.merged_into_id).toBe(final.id);
    expect((await rowOf(org, middle.id))?.merged_into_id).toBe(final.id);
  });

  it('keeps the target value by default and takes a source value where the target has none', async () => {
    const target = await newContact(org, { type: 'particulier', first_name: 'Jean', last_name: 'Valjean', email: 'jean@example.fr' });
    const source = await newContact(org, { type: 'professionnel', company: 'Valjean SARL', email: 'other@example.fr', notes: 'from source' });
    const res = await merge(target.id, { source_ids: [source.id] });
    expect(res.body.contact).toMatchObject({
      type: 'particulier',
      email: 'jean@example.fr',
      company: 'Valjean SARL',
      notes: 'from source',
      marketing_consent: null,
    });
    expect(await consentsOf(org, target.id)).toEqual([]);
  });

  it('refuses bad source ids and field choices with their field, writing nothing', async () => {
    const target = await newContact(org, { company: 'Target' });
    const source = await newContact(org, { company: 'Source' });
    const stranger = await newContact(await createTestOrg(), { company: 'Stranger' });
    const deleted = await newContact(org, { company: 'Deleted' });
    await call(routes.delete, 'DELETE', '/v1/contacts/x', { token, params: { id: deleted.id } });
    const cases: Array<[unknown, string]> = [
      [{}, 'source_ids'],
      [{ source_ids: [] }, 'source_ids'],
      [{ source_ids: ['nope'] }, 'source_ids.0'],
      [{ source_ids: [source.id, source.id] }, 'source_ids.1'],
      [{ source_ids: [source.id, target.id] }, 'source_ids.1'],
      [{ source_ids: [stranger.id] }, 'source_ids.0'],
      [{ source_ids: [source.id, deleted.id] }, 'source_ids.1'],
      [{ source_ids: [source.id], fields: { email: stranger.id } }, 'fields.email'],
      [{ source_ids: [source.id], fields: { email: 'x' } }, 'fields.email'],
    ];
    for (const [body, field] of cases) {
      for (const run of [preview, merge]) {
        const res = await run(target.id, body);
        expect(res.status, JSON.stringify(body)).toBe(422);
        expect(res.body.field, JSON.stringify(body)).toBe(field);
      }
    }
    expect((await rowOf(org, source.id))?.deleted_at).toBeNull();
  });

  it('reads ids in any case: a UUID is the same contact in upper case', async () => {
    const target = await newContact(org, { company: 'Case target' });
    const source = await newContact(org, { company: 'Case source', email: 'case@example.fr' });
    const upper = (id: string) => id.toUpperCase();
    // The target named in another case than in source_ids is still the target: never merged into itself.
    for (const run of [preview, merge]) {
      const self = await run(upper(target.id), { source_ids: [target.id] });
      expect(self.status).toBe(422);
      expect(self.body).toMatchObject({ code: 'validation_error', field: 'source_ids.0' });
      const twice = await run(target.id, { source_ids: [source.id, upper(source.id)] });
      expect(twice.status).toBe(422);
      expect(twice.body.field).toBe('source_ids.1');
    }
    expect(await rowOf(org, target.id)).toMatchObject({ deleted_at: null, merged_into_id: null });

    const res = await merge(target.id, { source_ids: [upper(source.id)], fields: { email: upper(source.id) } });
    expect(res.status).toBe(200);
    expect(res.body.contact).toMatchObject({ id: target.id, email: 'case@example.fr' });
    expect(res.body.sources.map((s: { id: string; merged_into_id: string }) => [s.id, s.merged_into_id])).toEqual([[source.id, target.id]]);
  });

  it('settles two crossed merges run at once: one merges, the other finds its target merged (no deadlock)', async () => {
    for (let round = 0; round < 5; round++) {
      const a = await newContact(org, { company: `Crossed A${round}` });
      const b = await newContact(org, { company: `Crossed B${round}` });
      const results = await Promise.all([merge(a.id, { source_ids: [b.id] }), merge(b.id, { source_ids: [a.id] })]);
      const statuses = results.map((r) => r.status).sort();
      expect(statuses, JSON.stringify(results.map((r) => r.body))).toEqual([200, 409]);
      expect(results.find((r) => r.status === 409)?.body.code).toBe('contact_merged');
    }
  });

  it('refuses to merge into a deleted contact (409 contact_deleted)', async () => {
    const target = await newContact(org, { company: 'Gone target' });
    const source = await newContact(org, { company: 'Live source' });
    await call(routes.delete, 'DELETE', '/v1/contacts/x', { token, params: { id: target.id } });
    for (const run of [preview, merge]) {
      const res = await run(target.id, { source_ids: [source.id] });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('contact_deleted');
    }
    expect((await rowOf(org, source.id))?.merged_into_id).toBeNull();
  });
});
