import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 3210);
const baseURL = `http://localhost:${port}`;

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
  webServer: {
    // The run owns .data/e2e: a fresh database each time, and no lock left by an earlier killed run.
    // Its output is kept whole for e2e/log-audit.ts, which checks no secret reached it.
    command: `rm -rf .data/e2e .data/e2e.lock .data/e2e-server.log .data/e2e-secrets.txt && mkdir -p .data && node node_modules/next/dist/bin/next start -p ${port} 2>&1 | tee .data/e2e-server.log`,
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
      AUTH_SECRET: 'e2e-secret',
    },
  },
});
