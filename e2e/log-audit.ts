import { existsSync, readFileSync } from 'node:fs';
import { DEMO, e2eServers, SECRETS_FILE, serverLog } from './helpers';

/*
 * After the journeys (Playwright's global teardown): no server's whole output may hold a secret. The one
 * exception is the banner the embedded demo prints at its first start, by design (README): its lines are cut
 * before the search. Searched: the demo password, any API key, session and CSRF cookies, and every secret a journey
 * handled (remembered through rememberSecret in helpers.ts: keys created, wrong passwords typed…).
 */
export default function auditServerLog() {
  // Every server the run started (one per worker).
  const logs = Array.from({ length: e2eServers() }, (_, index) => serverLog(index));
  for (const file of logs) if (!existsSync(file)) throw new Error(`${file} is missing: the server's output was not captured.`);
  const log = logs.map((file) => readFileSync(file, 'utf8')).join('\n').replace(/┌─ Paraphe demo ready[\s\S]*?└─+/g, '[demo banner]');
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
  if (found.length > 0) throw new Error(`The servers' output (${logs.join(', ')}) holds ${found.join(', ')}.`);
  console.log(`log audit: ${log.split('\n').length} lines of output of ${logs.length} servers, ${remembered.length + 1} secrets and ${patterns.length} patterns, none found`);
}
