import { expect, it } from 'vitest';
import { GET } from '@/app/v1/openapi.json/route';
import { EVENT_CATALOGUE, EVENT_TYPES, eventRegistry, NOT_EMITTED_YET } from '@/lib/platform/events';
import { call } from '@/lib/testing/http';
import { keyPaths } from './examples/record';
import { COMMITTED_EVENT_EXAMPLES, eventExample, webhookPayload } from './webhooks';

it('has a committed example for every emitted token and for nothing else', () => {
  const emitted = EVENT_TYPES.filter((t) => !NOT_EMITTED_YET.includes(t));
  expect(Object.keys(COMMITTED_EVENT_EXAMPLES).sort(), 'run npm run openapi:examples').toEqual(emitted.sort());
});

it('each example parses, strictly, as the delivery body of its token with its owner’s object schema', () => {
  for (const type of EVENT_TYPES) {
    const example = eventExample(type);
    const parsed = webhookPayload(type).strict().safeParse(example);
    expect(parsed.error, `${type}: its example no longer parses; run npm run openapi:examples`).toBeUndefined();
    // An object schema strips the keys it does not know: the example's object has no field its schema lacks.
    const schema = NOT_EMITTED_YET.includes(type) ? undefined : eventRegistry().schemas[type];
    if (schema) {
      const object = (example as { data: { object: unknown } }).data.object;
      expect([...keyPaths(object)].filter((p) => !keyPaths(schema.parse(object)).has(p)), `${type}: fields the schema does not declare`).toEqual([]);
    }
  }
});

it('documents every catalogued token under webhooks: body schema, Standard Webhooks headers, example, not-emitted marker', async () => {
  const doc = (await call(GET, 'GET', '/v1/openapi.json')).body;
  expect(Object.keys(doc.webhooks).sort()).toEqual([...EVENT_TYPES].sort());
  for (const type of EVENT_TYPES) {
    const post = doc.webhooks[type].post;
    expect(post.description).toContain(EVENT_CATALOGUE[type].meaning);
    expect(post.parameters.filter((p: { in: string; required: boolean }) => p.in === 'header' && p.required).map((p: { name: string }) => p.name)).toEqual([
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
    ]);
    const media = post.requestBody.content['application/json'];
    expect(media.schema.required).toEqual(['id', 'type', 'created_at', 'data']);
    expect(media.schema.properties.type).toMatchObject({ const: type });
    expect(media.example).toEqual(eventExample(type));
    const pending = NOT_EMITTED_YET.includes(type);
    expect(post.description.includes('Not emitted yet'), type).toBe(pending);
    expect(post['x-not-emitted-yet'] === true, type).toBe(pending);
  }
  expect(doc.webhooks['invoice.finalized'].post.requestBody.content['application/json'].schema.properties.data.properties.object).toEqual({
    $ref: '#/components/schemas/BillingDocument',
    description: 'The resource as it stands after the change (for a deletion, as it was).',
  });
  // Every token is emitted now (the signer API emits the last four): none is marked.
  expect(doc.webhooks['signature.envelope.completed'].post.summary).toBe('signature.envelope.completed');
});
