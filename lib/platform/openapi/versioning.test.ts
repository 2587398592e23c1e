import '@/lib/composition/modules';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { diffDocuments, unannounced } from './diff';
import { CHANGELOG_FILE, CLIENT_TYPES_FILE, clientTypes, SNAPSHOT_FILE, stableDocument } from './generated';

/*
 * docs/api-versioning.md: the committed snapshot and the typed client's types follow the generated document, and a
 * breaking change between the snapshot and the document cannot land unless docs/api-changelog.md names it.
 */
const document = stableDocument();
const snapshot = JSON.parse(readFileSync(SNAPSHOT_FILE, 'utf8'));

describe('the OpenAPI diff check', () => {
  it('names every breaking change since the snapshot in the changelog, and the snapshot is up to date', async () => {
    const diff = await diffDocuments(snapshot, document);
    const missing = unannounced(diff, readFileSync(CHANGELOG_FILE, 'utf8'));
    expect(missing.map((b) => b.mention), `breaking changes: name each in ${CHANGELOG_FILE} (docs/api-versioning.md)`).toEqual([]);
    expect(diff.changed, `the document changed: run npm run openapi:snapshot and commit ${SNAPSHOT_FILE}`).toBe(false);
  });

  it('reports a removed operation, a new required request field as breaking; an added operation is not', async () => {
    const changed = structuredClone(snapshot);
    delete changed.paths['/v1/contacts'].get;
    const body = changed.paths['/v1/products'].post.requestBody.content['application/json'].schema;
    const create = body.$ref ? changed.components.schemas[body.$ref.split('/').pop()] : body;
    create.required = [...(create.required ?? []), 'sku_required_now'];
    create.properties.sku_required_now = { type: 'string' };
    const diff = await diffDocuments(snapshot, changed);
    expect(diff.breaking.map((b) => b.code)).toEqual(expect.arrayContaining(['method.remove', 'request.body.scope.remove']));
    expect(diff.breaking.find((b) => b.code === 'method.remove')?.mention).toBe('`method.remove` `paths./v1/contacts.get`');
    expect(unannounced(diff, '- `method.remove` `paths./v1/contacts.get`').map((b) => b.code)).not.toContain('method.remove');

    const added = structuredClone(snapshot);
    added.paths['/v1/things'] = { get: structuredClone(snapshot.paths['/v1/contacts'].get) };
    const additive = await diffDocuments(snapshot, added);
    expect(additive).toEqual({ breaking: [], changed: true });
  });
});

it('the typed client’s committed types are those of the document (npm run client:generate)', async () => {
  expect(readFileSync(CLIENT_TYPES_FILE, 'utf8') === (await clientTypes(document)), `${CLIENT_TYPES_FILE} is out of date: run npm run client:generate`).toBe(true);
});
