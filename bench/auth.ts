import { load, printTable, startServer } from './lib/server';

/**
 * Issue 2's figure: an authenticated GET that reads one row (API key verified, scope, rate limit counted in
 * the database, one SELECT) against a bare route returning a constant, 32 connections, on the built server.
 * Target: authenticated ≥ 60 % of bare throughput, p99 < 25 ms.
 */
const server = await startServer(3301);
try {
  const headers = { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' };
  const created = await fetch(`${server.baseUrl}/v1/contacts`, { method: 'POST', headers, body: JSON.stringify({ company: 'Bench SARL', email: 'bench@example.fr' }) });
  if (created.status !== 201) throw new Error(`setup failed: ${created.status} ${await created.text()}`);
  const { id } = (await created.json()) as { id: string };

  // Warm both paths (JIT, route compilation, key cache) before measuring.
  await load('warm-up', { url: `${server.baseUrl}/healthz`, duration: 3 });
  await load('warm-up', { url: `${server.baseUrl}/v1/contacts/${id}`, headers, duration: 3 });

  const bare = await load('bare GET /healthz', { url: `${server.baseUrl}/healthz` });
  const authed = await load(`authenticated GET /v1/contacts/{id}`, { url: `${server.baseUrl}/v1/contacts/${id}`, headers });
  console.log(`\nengine: ${server.engine}; 32 connections, 10 s each, built server (next start)`);
  printTable([bare, authed]);
  const ratio = authed.requestsPerSecond / bare.requestsPerSecond;
  console.log(`authenticated / bare throughput: ${(ratio * 100).toFixed(1)} % (target ≥ 60 %)`);
  console.log(`authenticated p99: ${authed.p99} ms (target < 25 ms)`);
  if (authed.non2xx || authed.errors) console.log(`WARNING: ${authed.non2xx} non-2xx, ${authed.errors} errors`);
} finally {
  await server.stop();
}
