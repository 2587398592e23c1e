import { Validator } from '@seriousme/openapi-schema-validator';
import { expect, it } from 'vitest';
import { GET } from '@/app/v1/openapi.json/route';
import { call } from '@/lib/testing/http';
import { operations } from '@/lib/composition/modules';


it('serves a valid OpenAPI 3.1 document listing every operation, with no authentication', async () => {
  const res = await call(GET, 'GET', '/v1/openapi.json');
  expect(res.status).toBe(200);
  const validator = new Validator();
  const result = await validator.validate(res.body);
  expect(result.errors ?? []).toEqual([]);
  expect(result.valid).toBe(true);
  expect(validator.version).toBe('3.1');

  for (const op of operations) {
    const documented = res.body.paths[op.path]?.[op.method];
    expect(documented, `${op.method} ${op.path}`).toBeDefined();
    expect(documented.description).toContain(op.scope);
    expect(documented.responses['401']).toBeDefined();
  }
  const ids = operations.map((op) => `${op.method} ${op.path}`);
  expect(new Set(ids).size).toBe(ids.length);
});

it('states the scope of each operation in its security requirement, and the errors every call can answer', async () => {
  const doc = (await call(GET, 'GET', '/v1/openapi.json')).body;
  for (const op of operations) {
    const documented = doc.paths[op.path][op.method];
    expect(documented.security, `${op.method} ${op.path}`).toEqual([{ apiKey: [op.scope] }]);
    expect(documented['x-scope']).toBe(op.scope);
    expect(documented.responses['403'].description).toContain('forbidden');
    expect(documented.responses['403'].description).toContain('no_active_org');
    expect(documented.responses['429'].description).toContain('rate_limited');
    expect(documented.responses['500'].description).toContain('internal_error');
    if (op.params) expect(documented.responses['404'].description).toContain('not_found');
    if (op.method === 'post') {
      expect(documented.responses['409'].description).toContain('idempotency_in_progress');
      expect(documented.responses['422'].description).toContain('idempotency_key_reused');
    }
  }
});

it('marks a body optional when every field is (send, manual reminder), required otherwise', async () => {
  const doc = (await call(GET, 'GET', '/v1/openapi.json')).body;
  expect(doc.paths['/v1/invoices/{id}/send'].post.requestBody.required).toBe(false);
  expect(doc.paths['/v1/invoices/{id}/reminders'].post.requestBody.required).toBe(false);
  expect(doc.paths['/v1/invoices'].post.requestBody.required).toBe(true);
});

it('documents the reminder-tracking row of the spec: its fields, their types and nullability, at most 20 rows', async () => {
  const doc = (await call(GET, 'GET', '/v1/openapi.json')).body;
  const tracking = doc.paths['/v1/invoices/reminders/tracking'].get;
  expect(tracking.security).toEqual([{ apiKey: ['invoice:read'] }]);
  const list = doc.components.schemas.ReminderTracking;
  expect(list.required).toEqual(['items']);
  expect(list.properties.items.maxItems).toBe(20);
  const row = doc.components.schemas.ReminderTrackingRow;
  const fields = ['document_id', 'number', 'contact_name', 'due_date', 'days_overdue', 'total_ttc_cents', 'balance_cents', 'sent_count', 'pending_count', 'next_at', 'exhausted'];
  expect(Object.keys(row.properties).sort()).toEqual([...fields].sort());
  expect([...row.required].sort()).toEqual([...fields].sort());
  const nullable = (p: { type?: unknown; anyOf?: Array<{ type?: string }> }) =>
    (Array.isArray(p.type) && p.type.includes('null')) || (p.anyOf ?? []).some((s) => s.type === 'null');
  expect(fields.filter((f) => nullable(row.properties[f]))).toEqual(['number', 'contact_name', 'due_date', 'next_at']);
  expect(row.properties.days_overdue).toMatchObject({ type: 'integer', format: 'int32', minimum: 0 });
  for (const f of ['total_ttc_cents', 'balance_cents', 'sent_count', 'pending_count']) expect(row.properties[f]).toMatchObject({ type: 'integer', format: 'int64' });
  expect(row.properties.balance_cents.exclusiveMinimum).toBe(0);
  expect(row.properties.exhausted.type).toBe('boolean');
});
