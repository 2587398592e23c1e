import { type Attributes, type Meter, metrics, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { IMetricReader } from '@opentelemetry/sdk-metrics';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';

/**
 * Traces and metrics (issue 34), through the OpenTelemetry API: spans and instruments are no-ops until a provider is
 * registered — by `startTelemetry` (./start.ts, when OTEL_EXPORTER_OTLP_ENDPOINT is set) in the server and the worker,
 * or by a test's in-memory one (lib/testing/telemetry.ts). The code that is traced only calls `inSpan` and the
 * instruments below; it never knows whether anything listens.
 */

const TRACER = 'paraphe';

const kinds = { server: SpanKind.SERVER, client: SpanKind.CLIENT, internal: SpanKind.INTERNAL, consumer: SpanKind.CONSUMER, producer: SpanKind.PRODUCER } as const;

export interface SpanOptions {
  kind?: keyof typeof kinds;
  attributes?: Attributes;
}

/**
 * Runs `fn` in a span, the active one while it runs (the spans of what it calls are its children); a thrown error
 * marks the span failed and records it.
 */
export async function inSpan<T>(name: string, options: SpanOptions, fn: (span: Span) => Promise<T>): Promise<T> {
  return trace.getTracer(TRACER).startActiveSpan(name, { kind: kinds[options.kind ?? 'internal'], attributes: options.attributes }, async (span) => {
    try {
      return await fn(span);
    } catch (error) {
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Attributes added to the active span (the org once a request is authenticated). */
export function annotateSpan(attributes: Attributes) {
  trace.getActiveSpan()?.setAttributes(attributes);
}

// ─── Metrics ────────────────────────────────────────────────────────────────
// Instruments made from the API's meter before a provider is registered stay no-ops: they are made again whenever
// the global provider changes (the start, a test's provider).

interface Instruments {
  requestDuration: ReturnType<Meter['createHistogram']>;
  jobDuration: ReturnType<Meter['createHistogram']>;
  webhookDeliveries: ReturnType<Meter['createCounter']>;
  finalizations: ReturnType<Meter['createCounter']>;
  emails: ReturnType<Meter['createCounter']>;
  outboundDuration: ReturnType<Meter['createHistogram']>;
}

let made: { provider: unknown; instruments: Instruments } | null = null;

function instruments(): Instruments {
  const provider = metrics.getMeterProvider();
  if (made?.provider === provider) return made.instruments;
  const meter = provider.getMeter(TRACER);
  const instruments: Instruments = {
    requestDuration: meter.createHistogram('http.server.request.duration', { unit: 's', description: 'Duration of the API requests, by operation and status.' }),
    jobDuration: meter.createHistogram('paraphe.job.duration', { unit: 's', description: 'Duration of the job runs, by kind and outcome.' }),
    webhookDeliveries: meter.createCounter('paraphe.webhook.deliveries', { description: 'Webhook delivery attempts, by outcome (succeeded, retry, failed: no more attempts, disabled: 410).' }),
    finalizations: meter.createCounter('paraphe.documents.finalized', { description: 'Documents finalized (numbered and chained), by type.' }),
    emails: meter.createCounter('paraphe.emails', { description: 'E-mails handed to the transport, by outcome (sent, failed).' }),
    outboundDuration: meter.createHistogram('http.client.request.duration', { unit: 's', description: 'Duration of the calls to other services (PA, Stripe, Resend, webhooks), by service and outcome.' }),
  };
  made = { provider, instruments };
  return instruments;
}

export const requestMetrics = () => ({
  record: (route: string, method: string, status: number, ms: number) =>
    instruments().requestDuration.record(ms / 1000, { 'http.route': route, 'http.request.method': method, 'http.response.status_code': status }),
});

export const jobMetrics = () => ({
  record: (kind: string, outcome: 'completed' | 'failed', ms: number) => instruments().jobDuration.record(ms / 1000, { 'paraphe.job.kind': kind, 'paraphe.job.outcome': outcome }),
});

/** One webhook delivery attempt's outcome (succeeded, retry, failed, disabled). */
export const countWebhookDelivery = (outcome: string) => instruments().webhookDeliveries.add(1, { 'paraphe.webhook.outcome': outcome });

/** One document finalized. */
export const countFinalization = (type: string) => instruments().finalizations.add(1, { 'paraphe.document.type': type });

/** One e-mail handed to the transport. */
export const countEmail = (outcome: 'sent' | 'failed', transport: string) => instruments().emails.add(1, { 'paraphe.email.outcome': outcome, 'paraphe.email.transport': transport });

/**
 * A call to another service, as a client span with its duration measured: `service` names it (`pa`, `stripe`,
 * `resend`, `webhook`), `url` is recorded without its query.
 */
export async function outboundCall<T>(service: string, method: string, url: string | URL, fn: (span: Span) => Promise<T>): Promise<T> {
  const target = new URL(url);
  const started = performance.now();
  let outcome = 'ok';
  try {
    return await inSpan(
      `${method} ${service}`,
      { kind: 'client', attributes: { 'paraphe.service': service, 'http.request.method': method, 'server.address': target.hostname, 'url.full': `${target.origin}${target.pathname}` } },
      fn,
    );
  } catch (error) {
    outcome = 'error';
    throw error;
  } finally {
    instruments().outboundDuration.record((performance.now() - started) / 1000, { 'paraphe.service': service, 'paraphe.outcome': outcome });
  }
}

/** The queue gauges' source: rows of waiting jobs per kind (lib/platform/jobs registers it at start). */
export type QueueDepthReader = () => Promise<Array<{ kind: string; waiting: number; oldestSeconds: number }>>;

/**
 * Registers the queue depth and the age of its oldest waiting job per kind as observable gauges: read on each
 * collection only (every export interval), never when nothing collects.
 */
export function observeQueueDepth(read: QueueDepthReader) {
  const meter = metrics.getMeterProvider().getMeter(TRACER);
  const depth = meter.createObservableGauge('paraphe.queue.depth', { description: 'Jobs waiting (created or due for a retry), per kind.' });
  const age = meter.createObservableGauge('paraphe.queue.oldest_age', { unit: 's', description: 'Age of the oldest waiting job, per kind.' });
  meter.addBatchObservableCallback(
    async (observer) => {
      for (const row of await read().catch(() => [])) {
        observer.observe(depth, row.waiting, { 'paraphe.job.kind': row.kind });
        observer.observe(age, row.oldestSeconds, { 'paraphe.job.kind': row.kind });
      }
    },
    [depth, age],
  );
}

// ─── The exporting SDK ──────────────────────────────────────────────────────

let stop: (() => Promise<void>) | null = null;

export interface TelemetryOptions {
  serviceName: string;
  /** OTEL_EXPORTER_OTLP_ENDPOINT: spans and metrics exported over OTLP/HTTP there. */
  endpoint: string | null;
  /** Instead of the OTLP exporters (a test's in-memory ones: lib/testing/telemetry.ts). */
  spanProcessors?: SpanProcessor[];
  metricReader?: IMetricReader;
}

/**
 * Starts OpenTelemetry's Node SDK when OTEL_EXPORTER_OTLP_ENDPOINT is set (the server's instrumentation hook, the
 * worker): spans and metrics exported over OTLP/HTTP (every 15 s for metrics), the standard `OTEL_*` variables read by
 * the SDK itself. Besides our own spans, the SDK's http and undici instrumentations trace what the SDKs of Stripe and
 * Resend send. Returns whether it started.
 */
export async function startTelemetry(options: TelemetryOptions): Promise<boolean> {
  const inMemory = Boolean(options.spanProcessors || options.metricReader);
  if ((!options.endpoint && !inMemory) || stop) return Boolean(stop);
  const [{ NodeSDK }, { BatchSpanProcessor }, { OTLPTraceExporter }, { OTLPMetricExporter }, { PeriodicExportingMetricReader }, { HttpInstrumentation }, { UndiciInstrumentation }] =
    await Promise.all([
      import('@opentelemetry/sdk-node'),
      import('@opentelemetry/sdk-trace-base'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/exporter-metrics-otlp-http'),
      import('@opentelemetry/sdk-metrics'),
      import('@opentelemetry/instrumentation-http'),
      import('@opentelemetry/instrumentation-undici'),
    ]);
  const base = options.endpoint?.replace(/\/$/, '');
  const sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME?.trim() || options.serviceName,
    spanProcessors: options.spanProcessors ?? [new BatchSpanProcessor(new OTLPTraceExporter({ url: `${base}/v1/traces` }))],
    metricReaders: [options.metricReader ?? new PeriodicExportingMetricReader({ exporter: new OTLPMetricExporter({ url: `${base}/v1/metrics` }), exportIntervalMillis: 15_000 })],
    // Health probes are not traced: a span every few seconds per instance says nothing. In memory (tests), our own
    // spans only.
    instrumentations: inMemory ? [] : [new HttpInstrumentation({ ignoreIncomingRequestHook: (req) => /^\/(healthz|readyz)\b/.test(req.url ?? '') }), new UndiciInstrumentation()],
  });
  sdk.start();
  stop = () => sdk.shutdown();
  return true;
}

/** Flushes and stops the SDK (graceful stop); nothing when it was not started. */
export async function stopTelemetry() {
  const current = stop;
  stop = null;
  await current?.().catch(() => undefined);
  // The global providers go back to the API's no-ops (the SDK's shutdown leaves them registered).
  trace.disable();
  metrics.disable();
}
