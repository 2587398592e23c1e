import { eq } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { invoiceSettings } from '@/db/schema';
import { routes } from '@/lib/domain/documents/testing';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { fakeDns } from '@/lib/platform/outbound/testing';
import { openSecret, readPdpConfig, resealPdpConfig, type StoredPdpConfig } from './pdp-config';

/*
 * pdp_config on PUT/GET /v1/invoice/settings: validated with a 422 naming the field, the client secret sealed at rest
 * (the database holds ciphertext only), masked on every read, kept when the masked value is sent back; key rotation.
 */

let org: TestOrg;
let token: string;
beforeAll(async () => {
  org = await createTestOrg();
  token = await org.key();
});
const put = (body: unknown, t = token) => call(routes.putSettings, 'PUT', '/v1/invoice/settings', { token: t, body });
const get = (t = token) => call(routes.getSettings, 'GET', '/v1/invoice/settings', { token: t });
const stored = async (o = org) => ((await o.db.select({ pdp_config: invoiceSettings.pdp_config }).from(invoiceSettings).where(eq(invoiceSettings.org_id, o.org.id)))[0]?.pdp_config ?? null) as StoredPdpConfig | null;
const SECRET = 's3cr3t-client-secret-wxyz';
const CONFIG = { provider: 'afnor', base_url: 'https://api.pa.example.fr/', client_id: 'paraphe-42', client_secret: SECRET };

// The tests have no DNS: these names resolve as a real PA's (public) and a planted one's (a private address) would.
fakeDns({ localhost: ['127.0.0.1', '::1'], 'api.pa.example.fr': ['93.184.215.14'], 'pa.example.fr': ['93.184.215.14'], 'pa-internal.example.fr': ['93.184.215.14', '10.1.2.3'] });

const saved = { ...process.env };
afterEach(() => {
  for (const name of ['SECRETS_ENCRYPTION_KEY', 'SECRETS_ENCRYPTION_KEY_PREVIOUS', 'EINVOICING_ALLOW_PRIVATE'] as const) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

describe('pdp_config', () => {
  it('stores the secret sealed (AES-256-GCM, never in clear), answers it masked, opens it for the connector', async () => {
    const res = await put({ pdp_config: CONFIG });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const masked = { provider: 'afnor', base_url: 'https://api.pa.example.fr', token_url: null, client_id: 'paraphe-42', client_secret: '••••wxyz' };
    expect(res.body.pdp_config).toEqual(masked);
    expect((await get()).body.pdp_config).toEqual(masked);
    const row = await stored();
    expect(JSON.stringify(row)).not.toContain(SECRET);
    expect(row).toMatchObject({ client_secret_hint: 'wxyz', client_secret_sealed: expect.stringMatching(/^v1\.[0-9a-f]{8}\.[\w-]+\.[\w-]+\.[\w-]+$/) });
    expect(readPdpConfig(row)).toEqual({ ...masked, client_secret: SECRET });
  });

  it('a PUT sending the masked value back keeps the stored secret; a new secret replaces it; null removes the config', async () => {
    await put({ pdp_config: CONFIG });
    const before = await stored();
    const back = (await get()).body;
    const res = await put({ ...back, pdp_config: { ...back.pdp_config, client_id: 'paraphe-43' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const after = await stored();
    expect([after!.client_id, after!.client_secret_sealed]).toEqual(['paraphe-43', before!.client_secret_sealed]);
    await put({ pdp_config: { ...CONFIG, client_secret: 'another-secret-1234' } });
    expect(readPdpConfig(await stored())!.client_secret).toBe('another-secret-1234');
    expect((await put({ pdp_config: null })).body.pdp_config).toBeNull();
    expect(await stored()).toBeNull();
  });

  it('a short secret is masked without any of its characters', async () => {
    expect((await put({ pdp_config: { ...CONFIG, client_secret: 'short' } })).body.pdp_config.client_secret).toBe('••••');
  });

  it.each([
    [{ ...CONFIG, provider: 'chorus' }, 'pdp_config.provider'],
    [{ ...CONFIG, base_url: 'http://pa.example.fr' }, 'pdp_config.base_url'],
    [{ ...CONFIG, base_url: 'https://user:pw@pa.example.fr' }, 'pdp_config.base_url'],
    [{ ...CONFIG, base_url: 'not a url' }, 'pdp_config.base_url'],
    [{ ...CONFIG, token_url: 'ftp://pa.example.fr/token' }, 'pdp_config.token_url'],
    [{ ...CONFIG, client_id: ' ' }, 'pdp_config.client_id'],
    [{ ...CONFIG, client_secret: '' }, 'pdp_config.client_secret'],
    [{ provider: 'afnor', base_url: 'https://pa.example.fr', client_id: 'x' }, 'pdp_config.client_secret'],
    [{ ...CONFIG, extra: 1 }, 'pdp_config.extra'],
    ['afnor', 'pdp_config'],
  ])('422 naming the field: %j → %s', async (pdp_config, field) => {
    const res = await put({ pdp_config });
    expect([res.status, res.body.code, res.body.field], JSON.stringify(res.body)).toEqual([422, 'validation_error', field]);
  });

  it('422 on a masked secret when none is stored (another org’s mask proves nothing)', async () => {
    const fresh = await createTestOrg();
    const res = await put({ pdp_config: { ...CONFIG, client_secret: '••••wxyz' } }, await fresh.key());
    expect([res.status, res.body.field]).toEqual([422, 'pdp_config.client_secret']);
    expect(await stored(fresh)).toBeNull();
  });

  // Issue 33: an org made the server call its own loopback, the cloud metadata service and the internal network.
  it.each([
    [{ ...CONFIG, base_url: 'http://127.0.0.1:4010/internal/admin' }, 'pdp_config.base_url', /must be an https URL/],
    [{ ...CONFIG, base_url: 'https://127.0.0.1:4010/internal/admin' }, 'pdp_config.base_url', /non-public address \(127\.0\.0\.1, loopback\)/],
    [{ ...CONFIG, base_url: 'https://169.254.169.254/latest' }, 'pdp_config.base_url', /169\.254\.169\.254, linkLocal/],
    [{ ...CONFIG, base_url: 'https://10.0.0.1' }, 'pdp_config.base_url', /10\.0\.0\.1, private/],
    [{ ...CONFIG, base_url: 'https://[::127.0.0.1]' }, 'pdp_config.base_url', /ipv4Compatible/],
    [{ ...CONFIG, base_url: 'https://localhost:4010' }, 'pdp_config.base_url', /loopback/],
    [{ ...CONFIG, token_url: 'https://192.168.0.1/oauth/token' }, 'pdp_config.token_url', /192\.168\.0\.1, private/],
    [{ ...CONFIG, base_url: 'https://pa-internal.example.fr' }, 'pdp_config.base_url', /10\.1\.2\.3, private/],
    [{ ...CONFIG, base_url: 'https://unknown.example.fr' }, 'pdp_config.base_url', /host name does not resolve/],
    [{ ...CONFIG, base_url: 'https://pa.example.fr/api?x=1' }, 'pdp_config.base_url', /query or fragment/],
  ])('refuses a PA that is not on the public internet: %j → 422 on %s, nothing stored', async (pdp_config, field, message) => {
    const fresh = await createTestOrg();
    const res = await put({ pdp_config }, await fresh.key());
    expect([res.status, res.body.code, res.body.field], JSON.stringify(res.body)).toEqual([422, 'validation_error', field]);
    expect(res.body.message).toMatch(message);
    expect(await stored(fresh)).toBeNull();
  });

  it('EINVOICING_ALLOW_PRIVATE=true lets http and private addresses pass (a PA on the operator’s network, the sandbox)', async () => {
    process.env.EINVOICING_ALLOW_PRIVATE = 'true';
    const res = await put({ pdp_config: { ...CONFIG, base_url: 'http://127.0.0.1:4010', token_url: 'https://192.168.0.1/oauth/token' } });
    expect([res.status, res.body.pdp_config?.base_url, res.body.pdp_config?.token_url], JSON.stringify(res.body)).toEqual([200, 'http://127.0.0.1:4010', 'https://192.168.0.1/oauth/token']);
    expect([(await put({ pdp_config: { ...CONFIG, base_url: 'ftp://127.0.0.1' } })).body.field]).toEqual(['pdp_config.base_url']);
    // Lift withdrawn: the stored private PA is refused again on its next PUT.
    process.env.EINVOICING_ALLOW_PRIVATE = 'false';
    expect((await put({ pdp_config: { ...CONFIG, base_url: 'http://127.0.0.1:4010' } })).body.field).toBe('pdp_config.base_url');
  });

  it('unset, the lift follows the development sandbox (PA_SANDBOX=true), never in production', async () => {
    const { einvoicingAllowPrivate } = await import('@/lib/platform/config');
    expect(einvoicingAllowPrivate({})).toBe(false);
    expect(einvoicingAllowPrivate({ PA_SANDBOX: 'true', NODE_ENV: 'development' })).toBe(true);
    expect(einvoicingAllowPrivate({ PA_SANDBOX: 'true', NODE_ENV: 'production' })).toBe(false);
    expect(einvoicingAllowPrivate({ PA_SANDBOX: 'true', EINVOICING_ALLOW_PRIVATE: 'false' })).toBe(false);
    expect(einvoicingAllowPrivate({ EINVOICING_ALLOW_PRIVATE: 'true', NODE_ENV: 'production' })).toBe(true);
  });

  it('a PUT sending the stored PA back does not resolve it again (other settings do not depend on DNS)', async () => {
    const fresh = await createTestOrg();
    const t = await fresh.key();
    expect((await put({ pdp_config: CONFIG }, t)).status).toBe(200);
    const back = (await get(t)).body;
    const { checkPdpTargets } = await import('./pdp-config');
    let asked = 0;
    const resolve = async () => {
      asked++;
      return [];
    };
    await checkPdpTargets({ ...back.pdp_config, client_secret: 'x' }, await stored(fresh), { resolve });
    expect(asked).toBe(0);
    await expect(checkPdpTargets({ ...back.pdp_config, base_url: 'https://other.example.fr', client_secret: 'x' }, await stored(fresh), { resolve })).rejects.toMatchObject({ field: 'pdp_config.base_url' });
    expect(asked).toBe(1);
  });

  it('rotation: SECRETS_ENCRYPTION_KEY_PREVIOUS still opens the old ciphertext, resealing moves it to the new key; an unknown key opens nothing', async () => {
    process.env.SECRETS_ENCRYPTION_KEY = Buffer.alloc(32, 1).toString('base64');
    await put({ pdp_config: CONFIG });
    const old = await stored();
    process.env.SECRETS_ENCRYPTION_KEY = 'ab'.repeat(32);
    process.env.SECRETS_ENCRYPTION_KEY_PREVIOUS = Buffer.alloc(32, 1).toString('base64');
    expect(readPdpConfig(old)!.client_secret).toBe(SECRET);
    const resealed = resealPdpConfig(old)!;
    expect(resealed.client_secret_sealed).not.toBe(old!.client_secret_sealed);
    expect(resealPdpConfig(resealed)).toBeNull();
    delete process.env.SECRETS_ENCRYPTION_KEY_PREVIOUS;
    expect(openSecret(old!.client_secret_sealed)).toBeNull();
    expect(readPdpConfig(resealed)!.client_secret).toBe(SECRET);
    expect(() => readPdpConfig(old)).toThrow(/cannot be decrypted/);
    process.env.SECRETS_ENCRYPTION_KEY = 'short';
    expect(() => readPdpConfig(resealed)).toThrow(/SECRETS_ENCRYPTION_KEY must be 32 bytes/);
  });

  it('401 without a key, 403 without invoice:write', async () => {
    expect((await put({ pdp_config: CONFIG }, '')).status).toBe(401);
    expect((await put({ pdp_config: CONFIG }, await org.key(['invoice:read']))).status).toBe(403);
  });
});

describe('einvoicing:reseal-secrets', () => {
  it('re-encrypts the secrets sealed with the previous key, counts those no key opens', async () => {
    const { runCli } = await import('@/lib/composition/cli/program');
    const { invoiceSettingsCli } = await import('./cli');
    process.env.SECRETS_ENCRYPTION_KEY = Buffer.alloc(32, 7).toString('base64');
    await put({ pdp_config: CONFIG });
    process.env.SECRETS_ENCRYPTION_KEY = 'cd'.repeat(32);
    process.env.SECRETS_ENCRYPTION_KEY_PREVIOUS = Buffer.alloc(32, 7).toString('base64');
    const out: string[] = [];
    const code = await runCli(['einvoicing:reseal-secrets', '--json'], { db: async () => org.db, out: (l) => out.push(l), err: (l) => out.push(l) }, [invoiceSettingsCli]);
    expect(code).toBe(0);
    expect(JSON.parse(out.join('\n')).resealed).toBeGreaterThanOrEqual(1);
    delete process.env.SECRETS_ENCRYPTION_KEY_PREVIOUS;
    expect(readPdpConfig(await stored())!.client_secret).toBe(SECRET);
  });
});
