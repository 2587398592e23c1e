import { startSandboxPa } from '@/lib/domain/einvoicing/sandbox/server';

/*
 * The sandbox PA in its own process (docs/einvoicing.md § Sandbox PA): `npm run pa:sandbox`, beside `npm run dev`.
 * PA_SANDBOX_PORT (default 4010), PA_SANDBOX_STEP_MS (default 2000: an invoice's statuses arrive 2 s apart).
 * Any client_id / client_secret pair is accepted; each client_id is a tenant of its own.
 */
const port = Number(process.env.PA_SANDBOX_PORT ?? 4010);
const stepMs = Number(process.env.PA_SANDBOX_STEP_MS ?? 2000);
if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PA_SANDBOX_PORT must be a port number, not "${process.env.PA_SANDBOX_PORT}".`);
if (!Number.isFinite(stepMs) || stepMs < 0) throw new Error(`PA_SANDBOX_STEP_MS must be a number of milliseconds, not "${process.env.PA_SANDBOX_STEP_MS}".`);

const { url, close } = await startSandboxPa({ port, host: process.env.PA_SANDBOX_HOST ?? '127.0.0.1', stepMs });
console.log(`[pa-sandbox] AFNOR XP Z12-013 sandbox PA on ${url} (statuses ${stepMs} ms apart)`);
console.log(`[pa-sandbox] pdp_config: {"provider":"afnor","base_url":"${url}","client_id":"demo","client_secret":"sandbox-secret"}`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    await close();
    process.exit(0);
  });
}
// Started by the app (PA_SANDBOX=true): leave with it, however it ends.
process.once('disconnect', async () => {
  await close();
  process.exit(0);
});
