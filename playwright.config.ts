import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 3210);
const baseURL = `http://localhost:${port}`;
// The fake Stripe (scripts/fake-stripe.ts): its hosted Checkout pays, and its events reach the app's webhook.
const stripePort = Number(process.env.FAKE_STRIPE_PORT ?? 12111);
const stripe = { account: 'acct_e2e', webhookSecret: 'whsec_e2e' };

/**
 * The journeys run against the built app (`npm run build` first) on its own fresh embedded database, with
 * a known demo password. Chromium is Debian's: Playwright never downloads a browser here.
 */
export default defineConfig({
  testDir: 'e2e',
  globalTeardown: './e2e/log-audit.ts',
  timeout: 60_000,
  retries: process.env.CI ? 1 : 0,
  workers: 1,
  reporter: [['line']],
  use: {
    baseURL,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
    trace: 'retain-on-failure',
  },
  webServer: [
    {
      command: 'node_modules/.bin/tsx scripts/fake-stripe.ts',
      port: stripePort,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      env: {
        FAKE_STRIPE_PORT: String(stripePort),
        FAKE_STRIPE_ACCOUNT: stripe.account,
        FAKE_STRIPE_WEBHOOK_URL: `${baseURL}/api/stripe/webhook`,
        STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
      },
    },
    {
      // The run owns .data/e2e: a fresh database each time, and no lock left by an earlier killed run. It is seeded
      // and connected to the fake's account before the server starts (scripts/e2e-prepare.ts).
      // Its output is kept whole for e2e/log-audit.ts, which checks no secret reached it.
      command: `rm -rf .data/e2e .data/e2e.lock .data/e2e-server.log .data/e2e-secrets.txt && mkdir -p .data && node_modules/.bin/tsx scripts/e2e-prepare.ts && node node_modules/next/dist/bin/next start -p ${port} 2>&1 | tee .data/e2e-server.log`,
      url: `${baseURL}/login`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      env: {
        PGLITE_DIR: '.data/e2e',
        DATABASE_URL: '',
        DEMO_EMAIL: 'demo@paraphe.test',
        DEMO_PASSWORD: 'e2e-password-123',
        APP_BASE_URL: baseURL,
        NEXTAUTH_URL: baseURL,
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
  ],

});
