/**
 * The largest body an endpoint reads: a signature document, MAX_PDF_BYTES (20 MB, lib/domain/signature/schemas.ts),
 * with the 64 KiB of multipart envelope its operation allows (maxBodyBytes), and as much again so that the route, not
 * Next.js, answers a larger body (413 payload_too_large). Without it Next.js's proxy (proxy.ts) cuts every body at
 * 10 MB and the route reads a truncated form (400 invalid_multipart); server actions stop at 1 MB. app/body-limits.test.ts
 * checks that it stays above every endpoint's limit.
 */
export const REQUEST_BODY_LIMIT = 20 * 1024 * 1024 + 128 * 1024;

/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite ships WASM and a data dir; pg-boss and argon2 are Node-only. Bundling them breaks at run time. libxml2-wasm
  // and saxon-js are loaded by our own e-invoice validation worker threads (lib/domain/facturx/schematron-worker.mjs).
  // pdfjs-dist (text tags at upload) starts its worker by importing its own file: it must stay a Node package.
  // piscina starts worker threads from its own files, esbuild runs its binary: lib/platform/sandbox loads both at run time.
  // OpenTelemetry's SDK patches Node's modules at run time (lib/platform/telemetry); pino writes through its own streams.
  serverExternalPackages: [
    '@electric-sql/pglite',
    'pg-boss',
    '@node-rs/argon2',
    'pg',
    'proper-lockfile',
    'libxml2-wasm',
    'saxon-js',
    'pdfjs-dist',
    'piscina',
    'esbuild',
    'pino',
    'pino-pretty',
    '@opentelemetry/api',
    '@opentelemetry/sdk-node',
    '@opentelemetry/exporter-trace-otlp-http',
    '@opentelemetry/exporter-metrics-otlp-http',
    '@opentelemetry/sdk-metrics',
    '@opentelemetry/sdk-trace-base',
    '@opentelemetry/instrumentation-http',
    '@opentelemetry/instrumentation-undici',
  ],
  poweredByHeader: false,
  // CI type-checks once with `npm run typecheck`; doing it again inside `next build` only costs time.
  typescript: { ignoreBuildErrors: true },
  experimental: {
    proxyClientMaxBodySize: REQUEST_BODY_LIMIT,
    // The back-office uploads the same PDFs through server actions (envelope, form, bulk send: « 20 Mo au plus »).
    serverActions: { bodySizeLimit: REQUEST_BODY_LIMIT },
  },
};

export default nextConfig;
