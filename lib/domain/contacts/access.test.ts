import { beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '@/lib/platform/auth';
import { buildOpenApiDocument } from '@/lib/platform/openapi';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { contactOperations } from './operations';
import { eventsOf, newContact, routes, rowOf } from './testing';

/**
 * The foundation's guarantees, endpoint by endpoint: 401 without a key, 403 without the scope, 404 for
 * another org's contact (which stays untouched), 422 naming the offending field.
 */
let mine: TestOrg;
let theirs: TestOrg;
let myContact: { id: string };
let theirContact: { id: string; updated_at: string };
let mySource: { id: string };
beforeAll(async () => {
  mine = await createTestOrg();
  theirs = await createTestOrg();
  myContact = await newContact(mine, { company: 'Mine', email: 'mine@example.fr' });
  mySource = await newContact(mine, { company: 'Mine too' });
  theirContact = await newContact(theirs, { company: 'Theirs', email: 'theirs@example.fr' });
});

type Handler = (typeof routes)[keyof typeof routes];
interface Endpoint {
  name: string;
  handler: Handler;
  method: string;
  scope: Scope;
  /** Body or query of a valid call, given the contact id in the path (when there is one). */
  input?: (id: string) => { body?: unknown; query?: Record<string, string> };
  hasId: boolean;
  /** An invalid input and the field the 422 must name; absent when the endpoint takes no input but the id. */
  invalid?: { body?: unknown; query?: Record<string, string>; field: string };
}

const endpoints: Endpoint[] = [
  { name: 'POST /v1/contacts', handler: routes.create, method: 'POST', scope: 'contacts:write', hasId: false, input: () => ({ body: { company: 'X' } }), invalid: { body: { company: 'X', siret: '123' }, field: 'siret' } },
  { name: 'GET /v1/contacts', handler: routes.list, method: 'GET', scope: 'contacts:read', hasId: false, invalid: { query: { lead_status: 'hot' }, field: 'lead_status' } },
  { name: 'POST /v1/contacts/import', handler: routes.import, method: 'POST', scope: 'contacts:write', hasId: false, input: () => ({ body: { contacts: [] } }), invalid: { body: { contacts: 'x' }, field: 'contacts' } },
  { name: 'GET /v1/contacts/duplicates', handler: routes.duplicates, method: 'GET', scope: 'contacts:read', hasId: false, invalid: { query: { limit: '0' }, field: 'limit' } },
  { name: 'GET /v1/contacts/{id}', handler: routes.get, method: 'GET', scope: 'contacts:read', hasId: true },
  { name: 'PATCH /v1/contacts/{id}', handler: routes.patch, method: 'PATCH', scope: 'contacts:write', hasId: true, input: () => ({ body: { city: 'Metz' } }), invalid: { body: { lead_score: 101 }, field: 'lead_score' } },
  { name: 'DELETE /v1/contacts/{id}', handler: routes.delete, method: 'DELETE', scope: 'contacts:write', hasId: true },
  { name: 'POST /v1/contacts/{id}/restore', handler: routes.restore, method: 'POST', scope: 'contacts:write', hasId: true },
  { name: 'POST /v1/contacts/{id}/merge-preview', handler: routes.mergePreview, method: 'POST', scope: 'contacts:write', hasId: true, input: () => ({ body: { source_ids: [mySource.id] } }), invalid: { body: { source_ids: ['not-an-id'] }, field: 'source_ids.0' } },
  { name: 'POST /v1/contacts/{id}/merge', handler: routes.merge, method: 'POST', scope: 'contacts:write', hasId: true, input: () => ({ body: { source_ids: [mySource.id] } }), invalid: { body: { source_ids: [] }, field: 'source_ids' } },
  { name: 'POST /v1/contacts/{id}/erase', handler: routes.erase, method: 'POST', scope: 'contacts:write', hasId: true },
  { name: 'GET /v1/contacts/{id}/export', handler: routes.export, method: 'GET', scope: 'contacts:read', hasId: true },
];

const pathOf = (name: string, id: string) => name.split(' ')[1]!.replace('{id}', id);

describe.each(endpoints)('$name', (ep) => {
  const request = (token: string | undefined, id: string, extra: { body?: unknown; query?: Record<string, string> } = ep.input?.(id) ?? {}) =>
    call(ep.handler, ep.method, pathOf(ep.name, id), { token, params: ep.hasId ? { id } : {}, ...extra });

  it('answers 401 unauthorized without a key', async () => {
    const res = await request(undefined, myContact.id);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: 'unauthorized', message: expect.any(String), field: null });
  });

  it(`answers 403 forbidden without ${ep.scope}`, async () => {
    // A write endpoint refuses the read scope; a read endpoint refuses another module's scope.
    const wrong: Scope[] = ep.scope === 'contacts:write' ? ['contacts:read'] : ['invoice:write'];
    const res = await request(await mine.key(wrong), myContact.id);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('forbidden');
    expect((await rowOf(mine, myContact.id))?.deleted_at).toBeNull();
  });

  if (ep.hasId) {
    it("answers 404 for another org's contact, and leaves it untouched", async () => {
      const eventsBefore = (await eventsOf(theirs)).length;
      const res = await request(await mine.key(), theirContact.id);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: 'not_found', message: 'Contact not found.', field: null });
      const row = await rowOf(theirs, theirContact.id);
      expect(row).toMatchObject({ company: 'Theirs', email: 'theirs@example.fr', deleted_at: null, erased_at: null });
      expect(row?.updated_at.toISOString()).toBe(theirContact.updated_at);
      expect((await eventsOf(theirs)).length).toBe(eventsBefore);
    });

    it('answers 404 for an unknown or malformed id', async () => {
      for (const id of ['01900000-0000-7000-8000-000000000000', 'not-a-uuid']) {
        const res = await request(await mine.key(), id);
        expect(res.status, id).toBe(404);
      }
    });
  }

  if (ep.invalid) {
    const { field, ...input } = ep.invalid;
    it(`answers 422 validation_error naming ${field}`, async () => {
      const res = await request(await mine.key(), myContact.id, input);
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ code: 'validation_error', field });
    });
  }
});

describe('OpenAPI', () => {
  it('documents every contacts operation with its scope and the read representation', () => {
    const doc = buildOpenApiDocument('http://localhost:3000') as unknown as {
      paths: Record<string, Record<string, { description: string }>>;
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    };
    for (const op of contactOperations) {
      expect(doc.paths[op.path]?.[op.method]?.description, `${op.method} ${op.path}`).toContain(op.scope);
    }
    expect(Object.keys(doc.components.schemas.Contact?.properties ?? {})).toEqual(
      expect.arrayContaining(['id', 'display_name', 'siren', 'consent_updated_at', 'deleted_at', 'created_at', 'updated_at', 'tags']),
    );
    expect(endpoints.map((e) => e.name).sort()).toEqual(contactOperations.map((o) => `${o.method.toUpperCase()} ${o.path}`).sort());
  });
});
