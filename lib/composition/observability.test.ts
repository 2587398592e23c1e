import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { AggregationTemporality, InMemoryMetricExporter, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingContext, line } from '@/lib/domain/documents/testing';
import { captureLogs, resetLogger } from '@/lib/platform/log';
import { startTelemetry, stopTelemetry } from '@/lib/platform/telemetry';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';

/*
 * Issue 34: the spans of one finalize request, through the SDK the server starts (an in-memory exporter instead of
 * OTLP), its metrics, and its log lines carrying the request id and the org.
 */

const spans = new InMemorySpanExporter();
const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 });
let org: TestOrg;
let api: Awaited<ReturnType<typeof billingContext>>;
const logLevel = process.env.LOG_LEVEL;

beforeAll(async () => {
  expect(await startTelemetry({ serviceName: 'paraphe-test', endpoint: null, spanProcessors: [new SimpleSpanProcessor(spans)], metricReader: reader })).toBe(true);
  process.env.LOG_LEVEL = 'info';
  resetLogger();
  org = await createTestOrg();
  api = await billingContext(org);
});

afterAll(async () => {
  await stopTelemetry();
  if (logLevel === undefined) delete process.env.LOG_LEVEL;
  else process.env.LOG_LEVEL = logLevel;
  resetLogger();
});

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe('a finalize request, observed', () => {
  it('is one trace: the request span, the finalization inside it, its SQL statements without their values, the e-invoice validation', async () => {
    const contact = await api.contact({ company: 'Traçabilité SARL' });
    const draft = await api.draft({ type: 'facture', contact_id: contact.id, items: [line('Audit de traçabilité', '2', 45_000)] });
    spans.reset();

    const { result: res, lines } = await captureLogs(() => api.finalize(draft.id));
    expect(res.status).toBe(200);
    const requestId = res.headers.get('x-request-id');
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);

    const finished = spans.getFinishedSpans();
    const request = finished.find((s) => s.name === 'POST /v1/invoices/{id}/finalize');
    expect(request, finished.map((s) => s.name).join(', ')).toBeDefined();
    expect(request!.kind).toBe(SpanKind.SERVER);
    expect(request!.attributes).toMatchObject({ 'http.route': '/v1/invoices/{id}/finalize', 'http.response.status_code': 200, 'paraphe.org_id': org.org.id, 'paraphe.request_id': requestId });
    expect(request!.status.code).not.toBe(SpanStatusCode.ERROR);

    const trace = finished.filter((s) => s.spanContext().traceId === request!.spanContext().traceId);
    const finalize = trace.find((s) => s.name === 'finalize document');
    expect(finalize).toBeDefined();
    expect(parentOf(finalize!)).toBe(request!.spanContext().spanId);
    expect(finalize!.attributes).toMatchObject({ 'paraphe.document.type': 'facture', 'paraphe.document.number': res.body.number });

    // The statements of the transaction, children of the finalization: the draft locked, the event recorded, the
    // sealing statement (number, chain, seal) — their text parameterized, never the client's name or the line's
    // description (the sealing statement's canonical payload travels as a parameter).
    const statements = trace.filter((s) => s.attributes['db.system.name'] === 'postgresql');
    const inFinalize = statements.filter((s) => parentOf(s) === finalize!.spanContext().spanId);
    expect(inFinalize.map((s) => s.name)).toEqual(expect.arrayContaining(['SELECT', 'INSERT']));
    expect(inFinalize.some((s) => /billing_seal_document\(/i.test(String(s.attributes['db.query.text'])))).toBe(true);
    expect(inFinalize.some((s) => /insert into "events"/i.test(String(s.attributes['db.query.text'])))).toBe(true);
    for (const s of statements) {
      expect(s.kind).toBe(SpanKind.CLIENT);
      expect(String(s.attributes['db.query.text'])).not.toMatch(/Traçabilité|Audit de/);
    }
    expect(trace.some((s) => s.name === 'einvoice validation')).toBe(true);

    // The log: the access line and every other line of the request carry its id and its org.
    const access = lines.find((l) => l.msg === 'request');
    expect(access).toMatchObject({ level: 'info', request_id: requestId, org_id: org.org.id, method: 'POST', route: '/v1/invoices/{id}/finalize', status: 200, service: 'paraphe' });
    expect(access!.trace_id).toBe(request!.spanContext().traceId);
    // The finalization's own line: its number, and what the chain lock cost it by the database's clock.
    expect(lines.find((l) => l.msg === 'document finalized')).toMatchObject({
      number: res.body.number,
      chain_lock_wait_ms: expect.any(Number),
      chain_lock_statement_ms: expect.any(Number),
    });
    for (const l of lines) expect(l.request_id).toBe(requestId);
  });

  it('counts the finalization and records the request duration by route and status', async () => {
    const collected = await reader.collect();
    const all = collected.resourceMetrics.scopeMetrics.flatMap((s) => s.metrics);
    const finalized = all.find((m) => m.descriptor.name === 'paraphe.documents.finalized');
    expect(finalized?.dataPoints.find((p) => p.attributes['paraphe.document.type'] === 'facture')?.value).toBeGreaterThanOrEqual(1);
    const duration = all.find((m) => m.descriptor.name === 'http.server.request.duration');
    const point = duration?.dataPoints.find((p) => p.attributes['http.route'] === '/v1/invoices/{id}/finalize' && p.attributes['http.response.status_code'] === 200);
    expect((point?.value as { count: number } | undefined)?.count).toBeGreaterThanOrEqual(1);
  });

  it("keeps a proxy's X-Request-Id, and an error's lines carry the request's id without the key", async () => {
    const token = await org.key(['invoice:read']);
    const { call } = await import('@/lib/testing/http');
    const { routes } = await import('@/lib/domain/documents/testing');
    const { result: res, lines } = await captureLogs(() => call(routes.finalize, 'POST', '/v1/invoices/x/finalize', { token, params: { id: crypto.randomUUID() }, headers: { 'x-request-id': 'edge-7f3a9c21' } }));
    expect(res.status).toBe(403);
    expect(res.headers.get('x-request-id')).toBe('edge-7f3a9c21');
    const access = lines.find((l) => l.msg === 'request');
    expect(access).toMatchObject({ request_id: 'edge-7f3a9c21', org_id: org.org.id, status: 403 });
    expect(JSON.stringify(lines)).not.toContain(token);
  });
});
