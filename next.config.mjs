/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite ships WASM and a data dir; pg-boss and argon2 are Node-only. Bundling them breaks at run time. libxml2-wasm
  // and saxon-js are loaded by our own e-invoice validation worker threads (lib/domain/facturx/schematron-worker.mjs).
  // pdfjs-dist (text tags at upload) starts its worker by importing its own file: it must stay a Node package.
  serverExternalPackages: ['@electric-sql/pglite', 'pg-boss', '@node-rs/argon2', 'pg', 'proper-lockfile', 'libxml2-wasm', 'saxon-js', 'pdfjs-dist'],
  poweredByHeader: false,
  // CI type-checks once with `npm run typecheck`; doing it again inside `next build` only costs time.
  typescript: { ignoreBuildErrors: true },
};

export default nextConfig;
