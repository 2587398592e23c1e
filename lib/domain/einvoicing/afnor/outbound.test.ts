import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as enrollmentRoute from '@/app/v1/invoice/einvoicing/enrollment/route';
import { routes } from '@/lib/domain/documents/testing';
import { createTestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { type PaConnector, PaError } from '../port';
import { AfnorConnector } from './connector';
import { type AfnorHttpOptions, forgetTokens } from './http';

/*
 * Issue 33: the PA connector as an SSRF tool. An org's pdp_config made the server POST Basic credentials to its own
 * loopback and read the reply back in the error. Here: the address checked at each connection after DNS (a public
 * name resolving to a private address is refused, nothing is sent), the socket pinned to the checked address, no
 * redirect followed, the remote body never echoed, and a closed port, a reset and an unreachable host alike.
 */

const PLANTED = 'admin-token-planted-0123456789';
type Handler = (req: IncomingMessage, res: ServerResponse) => void;
let handler: Handler = (_req, res) => res.end();
const seen: { method: string; url: string; host: string | undefined }[] = [];
let server: Server;
let port = 0;
let closedPort = 0;
let resetPort = 0;
let resetServer: ReturnType<typeof createTcpServer>;

const listen = async (s: Server | ReturnType<typeof createTcpServer>) => {
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return (s.address() as { port: number }).port;
};

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ method: req.method!, url: req.url!, host: req.headers.host });
    handler(req, res);
  });
  port = await listen(server);
  const closed = createTcpServer();
  closedPort = await listen(closed);
  await new Promise((resolve) => closed.close(resolve));
  // Accepts, then resets: an open port that speaks no HTTP.
  resetServer = createTcpServer((socket) => socket.resetAndDestroy());
  resetPort = await listen(resetServer);
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await new Promise((resolve) => resetServer.close(resolve));
});
beforeEach(() => {
  seen.length = 0;
  forgetTokens();
  handler = (req, res) => {
    if (req.url === '/oauth/token') return json(res, 200, { access_token: 'tok', expires_in: 300 });
    json(res, 200, { results: [] });
  };
});

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

const pa = (baseUrl: string, options: AfnorHttpOptions, tokenUrl: string | null = null): PaConnector =>
  new AfnorConnector({ provider: 'afnor', base_url: baseUrl, token_url: tokenUrl, client_id: 'probe', client_secret: 'probe-secret' }, { timeoutMs: 2000, ...options });
const failure = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (error) {
    expect(error).toBeInstanceOf(PaError);
    return error as PaError;
  }
  throw new Error('expected a PaError');
};
/** A name the test's resolver answers (the tests have no DNS). */
const resolveTo = (...addresses: string[]) => async () => addresses.map((address) => ({ address, family: (address.includes(':') ? 6 : 4) as 4 | 6 }));

describe('the PA connector: where it connects', () => {
  it('refuses loopback, link-local and private PAs at connection, before sending anything (no lift)', async () => {
    for (const base of [`http://127.0.0.1:${port}/internal/admin`, `https://127.0.0.1:${port}`, 'https://169.254.169.254/latest', 'https://10.0.0.1', 'https://[::127.0.0.1]']) {
      const error = await failure(pa(base, { allowPrivate: false }).searchFlows({}));
      expect(error.message).toMatch(/OAuth token: the PA's address is refused/);
    }
    expect(seen).toEqual([]);
  });

  it('a public-looking name that resolves to a private address is refused after DNS: nothing reaches it', async () => {
    const error = await failure(pa(`https://pa.example.fr:${port}`, { allowPrivate: false, resolve: resolveTo('127.0.0.1') }).searchFlows({}));
    expect(error.message).toBe(`OAuth token: the PA's address is refused (pa.example.fr:${port}: must not resolve to a non-public address (127.0.0.1, loopback))`);
    // One private answer among public ones is enough (a round-robin would reach it sometimes).
    const mixed = await failure(pa('https://pa.example.fr', { allowPrivate: false, resolve: resolveTo('93.184.215.14', '10.0.0.7') }).searchFlows({}));
    expect(mixed.message).toMatch(/10\.0\.0\.7, private/);
    // The token URL is checked as well as the base URL.
    const token = await failure(pa('https://93.184.215.14', { allowPrivate: false }, 'https://192.168.0.1/oauth/token').searchFlows({}));
    expect(token.message).toMatch(/192\.168\.0\.1, private/);
    expect(seen).toEqual([]);
  });

  it('connects to the address it checked, not to a second DNS answer (the name is resolved once, by the check)', async () => {
    let lookups = 0;
    const resolve = async () => {
      lookups++;
      return [{ address: '127.0.0.1', family: 4 as const }];
    };
    // A name no system resolver knows: reached only because the socket is pinned to the checked address.
    expect(await pa(`http://pa.rebind.invalid:${port}`, { allowPrivate: true, resolve }).searchFlows({})).toEqual([]);
    expect(seen.map((s) => [s.url, s.host])).toEqual([
      ['/oauth/token', `pa.rebind.invalid:${port}`],
      ['/flow-service/v1/flows/search', `pa.rebind.invalid:${port}`],
    ]);
    expect(lookups).toBe(2);
  });

  it('does not follow a redirect: the token request answered 302 stops there', async () => {
    handler = (req, res) => {
      if (req.url === '/oauth/token') return json(res, 302, {}, { location: `http://127.0.0.1:${port}/internal/admin` });
      json(res, 200, { results: [] });
    };
    const error = await failure(pa(`http://127.0.0.1:${port}`, { allowPrivate: true }).searchFlows({}));
    expect([error.kind, error.status, error.retryable]).toEqual(['rejected', 302, false]);
    expect(error.message).toBe('OAuth token: the PA answered a redirect (HTTP 302), which is not followed: check pdp_config');
    expect(seen.map((s) => s.url)).toEqual(['/oauth/token']);
  });
});

describe('the PA connector: what its errors say', () => {
  it('never echoes the remote body: neither free text nor a JSON message, only the status and a token-shaped errorCode', async () => {
    for (const [type, body] of [
      ['text/plain', `ADMIN_TOKEN=${PLANTED}\n`],
      ['application/json', JSON.stringify({ errorMessage: PLANTED, message: PLANTED, error_description: PLANTED })],
      ['application/json', JSON.stringify({ errorCode: `${PLANTED} and more words` })],
    ] as const) {
      handler = (_req, res) => {
        res.writeHead(500, { 'content-type': type });
        res.end(body);
      };
      forgetTokens();
      const error = await failure(pa(`http://127.0.0.1:${port}/internal/admin`, { allowPrivate: true }).searchFlows({}));
      expect([error.kind, error.status, error.code]).toEqual(['server', 500, null]);
      expect(error.message).toBe('OAuth token: the PA answered HTTP 500');
    }
    handler = (_req, res) => json(res, 422, { errorCode: 'SIREN_NOT_ELIGIBLE', errorMessage: PLANTED });
    const refused = await failure(pa(`http://127.0.0.1:${port}`, { allowPrivate: true }).searchFlows({}));
    expect(refused.message).toBe('OAuth token: the PA refused the request (HTTP 422, errorCode SIREN_NOT_ELIGIBLE)');
  });

  it('a closed port, a reset connection and a dead address read alike ("could not connect"); an open port that answers 500 says so', async () => {
    const closed = await failure(pa(`http://127.0.0.1:${closedPort}`, { allowPrivate: true }).searchFlows({}));
    const reset = await failure(pa(`http://127.0.0.1:${resetPort}`, { allowPrivate: true }).searchFlows({}));
    // A name resolving to an address with nothing behind it (an unreachable host's EHOSTUNREACH cannot be made
    // deterministic here; every socket error takes the same branch of send()).
    const nowhere = await failure(pa('http://pa.example.fr', { allowPrivate: true, resolve: resolveTo('0.0.0.0') }).searchFlows({}));
    const generic = (e: PaError) => [e.kind, e.status, e.message.replace(/ at \S+$/, ' at <host>')];
    expect(generic(closed)).toEqual(['unreachable', null, 'OAuth token: could not connect to the PA at <host>']);
    expect(generic(reset)).toEqual(generic(closed));
    expect(generic(nowhere)).toEqual(generic(closed));
    expect(closed.message).not.toMatch(/ECONNREFUSED|ECONNRESET|EHOSTUNREACH|socket/i);

    handler = (_req, res) => json(res, 500, { error: 'boom' });
    const answered = await failure(pa(`http://127.0.0.1:${port}`, { allowPrivate: true }).searchFlows({}));
    expect([answered.kind, answered.status, answered.message]).toEqual(['server', 500, 'OAuth token: the PA answered HTTP 500, errorCode boom']);
  });

  it('through the API: enrollment at a planted "PA" answers no byte of its reply', async () => {
    const org = await createTestOrg();
    const token = await org.key();
    handler = (_req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`ADMIN_TOKEN=${PLANTED}`);
    };
    // Stored while the operator allowed private PAs…
    process.env.EINVOICING_ALLOW_PRIVATE = 'true';
    const put = await call(routes.putSettings, 'PUT', '/v1/invoice/settings', {
      token,
      body: { einvoicing_enabled: true, pdp_config: { provider: 'afnor', base_url: `http://127.0.0.1:${port}/internal/admin`, client_id: 'probe', client_secret: 'probe-secret-0001' } },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const answered = await call(enrollmentRoute.POST, 'POST', '/v1/invoice/einvoicing/enrollment', { token, body: { siren: '732829320' } });
    expect(answered.status).toBe(503);
    expect(JSON.stringify(answered.body)).not.toContain(PLANTED);
    expect(answered.body.message).toMatch(/the PA answered HTTP 500/);
    // …and once the lift is withdrawn, the stored loopback PA is not even connected to.
    process.env.EINVOICING_ALLOW_PRIVATE = 'false';
    seen.length = 0;
    const refused = await call(enrollmentRoute.POST, 'POST', '/v1/invoice/einvoicing/enrollment', { token, body: { siren: '732829320' } });
    expect([refused.status, refused.body.message]).toEqual([503, expect.stringMatching(/the PA's address is refused .*must be an https URL/)]);
    expect(seen).toEqual([]);
  });
});
