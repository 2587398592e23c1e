import { defineConfig, type PlaywrightTestConfig } from '@playwright/test';
import { e2eServers, SECRETS_FILE, serverLog } from './e2e/helpers';

/*
 * One app server per parallel worker, each with its own embedded database and its own fake Stripe: journeys that run
 * at the same time share no row, no org setting and no webhook, and those of one worker run one after the other. A
 * worker process loads this file with its TEST_PARALLEL_INDEX, which picks its server. One worker by default: on 2
 * cores, two (E2E_WORKERS=2) ran the journeys only 1.3 times faster — both servers, both browsers and the JVMs fight
 * for the CPU, load 11 — and the heaviest pages (the API reference drawing 1.4 MB of OpenAPI, 6 s in an idle Chromium)
 * then outlast their timeouts. A machine with more cores can set more.
 */
const SERVERS = e2eServers();
const basePort = Number(process.env.E2E_PORT ?? 3210);
// The fake Stripe (scripts/fake-stripe.ts): its hosted Checkout pays, and its events reach the app's webhook.
const baseStripePort = Number(process.env.FAKE_STRIPE_PORT ?? 12111);
const stripe = { account: 'acct_e2e', webhookSecret: 'whsec_e2e' };
const urlOf = (index: number) => `http://localhost:${basePort + index}`;
const baseURL = urlOf(Number(process.env.TEST_PARALLEL_INDEX ?? 0));

/**
 * The journeys run against the built app (`npm run build` first), each worker's on its own fresh embedded database,
 * with a known demo password. Chromium is Debian's: Playwright never downloads a browser here.
 */
export default defineConfig({
  testDir: 'e2e',
  globalTeardown: './e2e/log-audit.ts',
  timeout: 60_000,
  retries: process.env.CI ? 1 : 0,
  workers: SERVERS,
  reporter: [['line']],
  use: {
    baseURL,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
    trace: 'retain-on-failure',
  },
  webServer: Array.from({ length: SERVERS }, (_, index) => servers(index)).flat(),
});

type WebServer = Extract<NonNullable<PlaywrightTestConfig['webServer']>, unknown[]>[number];

/** Worker `index`'s fake Stripe and app server. */
function servers(index: number): WebServer[] {
  const port = basePort + index;
  const stripePort = baseStripePort + index;
  const url = urlOf(index);
  const data = `.data/e2e-${index}`;
  return [
    {
      command: 'node_modules/.bin/tsx scripts/fake-stripe.ts',
      port: stripePort,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      env: {
        FAKE_STRIPE_PORT: String(stripePort),
        FAKE_STRIPE_ACCOUNT: stripe.account,
        FAKE_STRIPE_WEBHOOK_URL: `${url}/api/stripe/webhook`,
        STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
      },
    },
    {
      // The run owns its directory: a fresh database each time, and no lock left by an earlier killed run. It is seeded
      // and connected to the fake's account before the server starts (scripts/e2e-prepare.ts).
      // Its output is kept whole for e2e/log-audit.ts, which checks no secret reached it.
      command: `rm -rf ${data} ${data}.lock ${serverLog(index)}${index === 0 ? ` ${SECRETS_FILE}` : ''} && mkdir -p .data && node_modules/.bin/tsx scripts/e2e-prepare.ts && node node_modules/next/dist/bin/next start -p ${port} 2>&1 | tee ${serverLog(index)}`,
      url: `${url}/login`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      env: {
        PGLITE_DIR: data,
        DATABASE_URL: '',
        DEMO_EMAIL: 'demo@paraphe.test',
        DEMO_PASSWORD: 'e2e-password-123',
        APP_BASE_URL: url,
        NEXTAUTH_URL: url,
        AUTH_SECRET: 'e2e-secret-of-at-least-thirty-two-bytes',
        STRIPE_SECRET_KEY: 'sk_test_e2e',
        STRIPE_API_BASE: `http://127.0.0.1:${stripePort}`,
        STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
        FAKE_STRIPE_ACCOUNT: stripe.account,
        // The development sealing certificate scripts/e2e-prepare.ts makes (next start is production: one is required).
        SIGNATURE_CERT_PATH: '.data/signature-seal.p12',
        SIGNATURE_CERT_PASSWORD: 'paraphe-development',
        // The journeys' sandbox PA listens on http://127.0.0.1 (e2e/inbox.spec.ts): the operator's explicit lift.
        EINVOICING_ALLOW_PRIVATE: 'true',
        // As `npm start`: the stop is ours (lib/composition/shutdown.ts), not next's.
        NEXT_MANUAL_SIG_HANDLE: 'true',
      },
    },
  ];
}
