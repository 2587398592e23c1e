import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configProblems, configurationTable, configVariables, formatConfigProblem, README_TABLE_END, README_TABLE_START, trustedProxyCount, withConfigurationTable } from '.';

const production = { NODE_ENV: 'production', AUTH_SECRET: 'a'.repeat(32), SIGNATURE_CERT_PATH: '/etc/paraphe/seal.p12' };

describe('the configuration schema', () => {
  it('is the README table: npm run config:readme writes it between the markers', () => {
    const readme = readFileSync('README.md', 'utf8');
    expect(readme).toContain(README_TABLE_START);
    expect(readme).toContain(README_TABLE_END);
    // When this fails: `npm run config:readme` (the table is written from lib/platform/config/schema.ts).
    expect(withConfigurationTable(readme)).toBe(readme);
    expect(configurationTable()).toContain('`SIGNATURE_CERT_PATH` / `SIGNATURE_CERT_PASSWORD`');
  });

  it('names every environment variable the code reads (test and tooling ones aside)', () => {
    // Read by tests, benches and dev scripts only: not the app's configuration.
    const tooling = new Set([
      'CI',
      'VITEST_POOL_ID',
      'TEST_DATABASE_BASE_URL',
      'UPDATE_EVENT_EXAMPLES',
      'RECORD_API_EXAMPLES',
      'RECORD_API_EXAMPLES_DIR',
      'PDF_TEST_KEEP',
      'ERROR_CODES_RECORD',
      'ERROR_CODES_TRY',
      'MUTATIONS_PER_SAMPLE',
      'FAKE_STRIPE_ACCOUNT',
      'FAKE_STRIPE_PORT',
      'FAKE_STRIPE_WEBHOOK_URL',
      'FAKE_STRIPE_REFUND_SETTLE_MS',
      'PA_SANDBOX_HOST',
    ]);
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const file = path.join(dir, name);
        if (statSync(file).isDirectory()) walk(file);
        else if (/\.(ts|tsx|mjs)$/.test(name) && !/\.test\.tsx?$/.test(name)) files.push(file);
      }
    };
    for (const dir of ['lib', 'app', 'components', 'scripts', 'db']) walk(dir);
    files.push('instrumentation.ts', 'proxy.ts');
    const read = new Set<string>();
    for (const file of files) {
      if (file.startsWith(path.join('lib', 'testing'))) continue;
      for (const m of readFileSync(file, 'utf8').matchAll(/\b(?:process\.)?env\.([A-Z][A-Z0-9_]+)|setting\('([A-Z][A-Z0-9_]+)'/g)) read.add(m[1] ?? m[2]!);
    }
    const known = new Set(configVariables);
    expect([...read].filter((name) => !known.has(name) && !tooling.has(name)).sort()).toEqual([]);
  });

  it('asks nothing of a development start with no environment at all', () => {
    expect(configProblems({})).toEqual([]);
    expect(configProblems({ NODE_ENV: 'development' })).toEqual([]);
  });

  it('requires the sealing certificate and a 32-byte AUTH_SECRET in production', () => {
    expect(configProblems(production)).toEqual([]);
    const missing = configProblems({ NODE_ENV: 'production' });
    expect(missing.map((p) => p.variable).sort()).toEqual(['AUTH_SECRET', 'SIGNATURE_CERT_PATH']);
    const short = configProblems({ ...production, AUTH_SECRET: 'too-short' });
    expect(short).toHaveLength(1);
    expect(formatConfigProblem(short[0]!)).toBe(
      '[paraphe] configuration error: AUTH_SECRET is 9 bytes long; production needs 32 or more — fix: set AUTH_SECRET to 32 random bytes or more, the same on every instance (openssl rand -base64 32).',
    );
  });

  it('refuses a malformed DATABASE_URL and bad numbers, naming the variable and its fix', () => {
    const problems = (env: Record<string, string>) => configProblems({ ...production, ...env });
    expect(problems({ DATABASE_URL: 'postgres://postgres@127.0.0.1:54xx/paraphe' })[0]).toMatchObject({ variable: 'DATABASE_URL', message: 'DATABASE_URL is not a URL.' });
    expect(problems({ DATABASE_URL: 'mysql://db/paraphe' })[0]!.message).toMatch(/postgres:\/\//);
    expect(problems({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/paraphe' })).toEqual([]);
    expect(problems({ TRUST_PROXY: 'yes please' })[0]).toMatchObject({ variable: 'TRUST_PROXY', message: 'TRUST_PROXY must be a number of proxies (0, 1, 2…) or true/false, not "yes please".' });
    expect(problems({ SANDBOX_THREADS: '0' })[0]!.message).toBe('SANDBOX_THREADS must be a whole number from 1 to 64, not "0".');
    expect(problems({ RATE_LIMIT_POINTS: '1e3x' })[0]!.variable).toBe('RATE_LIMIT_POINTS');
    expect(problems({ SIGNIN_LOCK_AFTER: '0' })[0]!.variable).toBe('SIGNIN_LOCK_AFTER');
    expect(problems({ DATABASE_POOL_MAX: 'ten' })[0]!.fix).toContain('DATABASE_POOL_MAX');
    expect(problems({ WORKER_MODE: 'separate' })[0]!.variable).toBe('WORKER_MODE');
    expect(problems({ SECRETS_ENCRYPTION_KEY: 'c2hvcnQ=' })[0]!.variable).toBe('SECRETS_ENCRYPTION_KEY');
    expect(problems({ APP_BASE_URL: 'factures.example.fr' })[0]!.variable).toBe('APP_BASE_URL');
  });

  it('keeps the readers as views of the same parsers', () => {
    const saved = process.env.TRUST_PROXY;
    try {
      process.env.TRUST_PROXY = '2';
      expect(trustedProxyCount()).toBe(2);
      process.env.TRUST_PROXY = 'abc';
      expect(() => trustedProxyCount()).toThrow('TRUST_PROXY must be a number of proxies (0, 1, 2…) or true/false, not "abc".');
    } finally {
      if (saved === undefined) delete process.env.TRUST_PROXY;
      else process.env.TRUST_PROXY = saved;
    }
  });
});
