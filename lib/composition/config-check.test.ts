import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSealingIdentity } from '@/lib/domain/signature';
import { startProblems } from './config-check';

/**
 * The start's configuration check (issue 34), through the real entry points as child processes: the server's
 * (instrumentation.ts register(), what `next start` runs before it serves) and the compiled worker's (`npm run worker`).
 * A bad environment ends them with exit code 1 and one line per variable on stderr, instead of a server answering 500.
 */
const DEV_CERT = '.data/signature-seal.p12';
const AUTH_SECRET = 'config-check-test-secret-32-bytes-long';

function run(args: string[], env: Record<string, string>): Promise<{ code: number | null; stderr: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env } as unknown as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout!.resume();
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, ms: Date.now() - started });
    });
  });
}

const lines = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('[paraphe] configuration error:'));

beforeAll(() => {
  // The development certificate (made in .data/ if absent) stands for the operator's PKCS#12.
  loadSealingIdentity({ NODE_ENV: 'development', SIGNATURE_CERT_PATH: '' });
});

describe('the server start (instrumentation.ts)', () => {
  it('exits 1 with one line naming SIGNATURE_CERT_PATH and the fix when production has no sealing certificate', async () => {
    const script = "const { register } = await import('./instrumentation.ts'); await register(); console.log('registered');";
    const result = await run(['--import', 'tsx', '--input-type=module', '-e', script], { NODE_ENV: 'production', NEXT_RUNTIME: 'nodejs', AUTH_SECRET, PGLITE_DIR: 'memory' });
    expect(result.code).toBe(1);
    expect(lines(result.stderr)).toEqual([
      '[paraphe] configuration error: SIGNATURE_CERT_PATH is not set; production needs the PKCS#12 of the sealing certificate — fix: set SIGNATURE_CERT_PATH to a readable PKCS#12 (.p12) file of the sealing certificate and SIGNATURE_CERT_PASSWORD to its password.',
    ]);
    // Seconds, on a loaded machine: the check runs before the database, the queue or the validators start.
    expect(result.ms).toBeLessThan(45_000);
  }, 70_000);
});

describe('the worker (npm run worker → dist/worker.mjs)', () => {
  beforeAll(() => {
    execFileSync('npm', ['run', '-s', 'build:worker'], { stdio: 'inherit' });
  }, 120_000);

  it('exits 1 on a malformed DATABASE_URL and a bad SANDBOX_THREADS, one line for each', async () => {
    const result = await run(['dist/worker.mjs'], {
      NODE_ENV: 'production',
      AUTH_SECRET,
      SIGNATURE_CERT_PATH: DEV_CERT,
      SIGNATURE_CERT_PASSWORD: 'paraphe-development',
      DATABASE_URL: 'postgres://postgres@127.0.0.1:54xx/paraphe',
      SANDBOX_THREADS: 'four',
    });
    expect(result.code).toBe(1);
    const said = lines(result.stderr);
    expect(said).toHaveLength(2);
    expect(said[0]).toMatch(/^\[paraphe\] configuration error: DATABASE_URL is not a URL — fix: set DATABASE_URL to postgres:\/\//);
    expect(said[1]).toMatch(/SANDBOX_THREADS must be a whole number from 1 to 64, not "four" — fix: set SANDBOX_THREADS to/);
    expect(result.ms).toBeLessThan(45_000);
  }, 70_000);

  it('exits 1 on an AUTH_SECRET shorter than 32 bytes', async () => {
    const result = await run(['dist/worker.mjs'], { NODE_ENV: 'production', AUTH_SECRET: 'short', SIGNATURE_CERT_PATH: DEV_CERT, SIGNATURE_CERT_PASSWORD: 'paraphe-development' });
    expect(result.code).toBe(1);
    expect(lines(result.stderr)).toEqual([expect.stringMatching(/^\[paraphe\] configuration error: AUTH_SECRET is 5 bytes long; production needs 32 or more — fix: /)]);
  }, 70_000);
});

describe('startProblems', () => {
  const production = { NODE_ENV: 'production', AUTH_SECRET, SIGNATURE_CERT_PATH: DEV_CERT, SIGNATURE_CERT_PASSWORD: 'paraphe-development' };

  it('passes a complete production environment, and a development one with nothing set', () => {
    expect(startProblems(production)).toEqual([]);
    expect(startProblems({ NODE_ENV: 'development' })).toEqual([]);
  });

  it('opens the certificate: a wrong password is said as SIGNATURE_CERT_PASSWORD, an unreadable file as SIGNATURE_CERT_PATH', () => {
    expect(startProblems({ ...production, SIGNATURE_CERT_PASSWORD: 'wrong' })).toEqual([expect.objectContaining({ variable: 'SIGNATURE_CERT_PASSWORD' })]);
    const [absent] = startProblems({ ...production, SIGNATURE_CERT_PATH: '/nonexistent/seal.p12' });
    expect(absent).toMatchObject({ variable: 'SIGNATURE_CERT_PATH' });
    expect(absent!.message).toContain('unreadable (ENOENT)');
  });

  it('refuses a STORAGE_DIR it cannot create or write', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'paraphe-storage-'));
    const file = path.join(dir, 'a-file');
    writeFileSync(file, 'not a directory');
    const [problem] = startProblems({ ...production, STORAGE_DIR: path.join(file, 'storage') });
    expect(problem).toMatchObject({ variable: 'STORAGE_DIR' });
    expect(problem!.message).toMatch(/is not readable and writable by this process \(E(NOTDIR|EXIST)\)/);
    expect(startProblems({ ...production, STORAGE_DIR: path.join(dir, 'storage') })).toEqual([]);
    // With an S3 bucket the directory is not used.
    expect(startProblems({ ...production, STORAGE_DIR: path.join(file, 'storage'), S3_BUCKET: 'paraphe' })).toEqual([]);
  });
});
