import { accessSync, constants, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type ConfigProblem, configFix, configProblems, formatConfigProblem } from '@/lib/platform/config';
import { loadSealingIdentity, SealingCertificateError } from '@/lib/domain/signature';

type Env = Record<string, string | undefined>;

/**
 * Everything a start needs of the environment, checked before anything opens (issue 34): the schema of every variable
 * (lib/platform/config/schema.ts: numbers, URLs, keys, and in production AUTH_SECRET and SIGNATURE_CERT_PATH), the
 * sealing certificate itself (readable, right password, not expired: in production, or wherever one is configured), and
 * the local storage directory (readable and writable) when no S3 bucket is set. Synchronous and local: no network.
 */
export function startProblems(env: Env = process.env): ConfigProblem[] {
  const problems = configProblems(env);
  const bad = new Set(problems.map((p) => p.variable));
  const production = env.NODE_ENV === 'production';
  if (!bad.has('SIGNATURE_CERT_PATH') && (production || env.SIGNATURE_CERT_PATH?.trim())) {
    try {
      loadSealingIdentity(env);
    } catch (error) {
      if (!(error instanceof SealingCertificateError)) throw error;
      const variable = /password/i.test(error.message) ? 'SIGNATURE_CERT_PASSWORD' : 'SIGNATURE_CERT_PATH';
      problems.push({ variable, message: error.message, fix: configFix('SIGNATURE_CERT_PATH') });
    }
  }
  if (!env.S3_BUCKET) {
    const dir = path.resolve(/*turbopackIgnore: true*/ process.cwd(), env.STORAGE_DIR || '.data/storage');
    const reason = localDirectoryProblem(dir);
    if (reason) problems.push({ variable: 'STORAGE_DIR', message: `STORAGE_DIR (${dir}) ${reason}`, fix: configFix('STORAGE_DIR') });
  }
  return problems;
}

/** Null when the app may create, read and write files in `dir`; else why not. */
function localDirectoryProblem(dir: string): string | null {
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.R_OK | constants.W_OK | constants.X_OK);
    const probe = path.join(dir, `.start-probe-${process.pid}`);
    writeFileSync(probe, 'ok');
    rmSync(probe, { force: true });
    return null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return `is not readable and writable by this process (${code ?? String(error)})`;
  }
}

/**
 * The server's and the worker's first step: on a bad environment, one line per problem on stderr (the variable, what is
 * wrong, the fix) and exit 1, so that `next start` or `npm run worker` ends at once rather than answering 500.
 */
export function exitOnStartProblems(env: Env = process.env): void {
  const problems = startProblems(env);
  if (problems.length === 0) return;
  process.stderr.write(`${problems.map(formatConfigProblem).join('\n')}\n`);
  process.exit(1);
}
