import { existsSync, readFileSync } from 'node:fs';
import { DEMO, SECRETS_FILE, SERVER_LOG } from './helpers';

/*
 * After the journeys (Playwright's global teardown): the server's whole output must not hold a secret. The one
 * exception is the banner the embedded demo prints at its first start, by design (README): its lines are cut
 * before the search. Searched: the demo password, any API key, session and CSRF cookies, and every secret a journey
 * handled (remembered through rememberSecret in helpers.ts: keys created, wrong passwords typed…).
 */
export default function auditServerLog() {
  if (!existsSync(SERVER_LOG)) throw new Error(`${SERVER_LOG} is missing: the server's output was not captured.`);
  const log = readFileSync(SERVER_LOG, 'utf8').replace(/┌─ Paraphe demo ready[\s\S]*?└─+/g, '[demo banner]');
  const remembered = existsSync(SECRETS_FILE) ? readFileSync(SECRETS_FILE, 'utf8').split('\n').filter((s) => s.length >= 8) : [];
  const patterns: Array<[string, RegExp]> = [
    ['an API key', /paraphe_pk_(live|test)_[A-Za-z0-9]{8,}/],
    ['a session cookie', /next-auth\.session-token=/],
    ['a CSRF token', /next-auth\.csrf-token=|csrfToken=/],
    ['a bearer credential', /Bearer\s+[A-Za-z0-9_-]{16,}/],
    ['a password parameter', /password=[^&\s]+/i],
  ];
  const found = patterns.filter(([, pattern]) => pattern.test(log)).map(([what]) => what);
  for (const secret of [DEMO.password, ...remembered]) if (log.includes(secret)) found.push(`the secret "${secret.slice(0, 4)}…"`);
  if (found.length > 0) throw new Error(`The server's output (${SERVER_LOG}) holds ${found.join(', ')}.`);
  console.log(`log audit: ${log.split('\n').length} lines of server output, ${remembered.length + 1} secrets and ${patterns.length} patterns, none found`);
}
