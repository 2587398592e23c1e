/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite ships WASM and a data dir; pg-boss and argon2 are Node-only. Bundling them breaks at run time. xmllint-wasm
  // starts a worker from a file beside it and reads its WASM there; saxon-js is loaded by our own worker thread.
  serverExternalPackages: ['@electric-sql/pglite', 'pg-boss', '@node-rs/argon2', 'pg', 'proper-lockfile', 'xmllint-wasm', 'saxon-js'],
  poweredByHeader: false,
  // CI type-checks once with `npm run typecheck`; doing it again inside `next build` only costs time.
  typescript: { ignoreBuildErrors: true },
};

export default nextConfig;
