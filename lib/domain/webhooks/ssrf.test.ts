import { describe, expect, it } from 'vitest';
import { signedHeaders } from './signing';
import { isPublicAddress, resolveTarget, TargetRefused } from './ssrf';
import { verifyStandardWebhook } from './testing';
import { Webhook } from 'standardwebhooks';

const refusal = async (url: string, options: Parameters<typeof resolveTarget>[1] = {}) => {
  try {
    await resolveTarget(url, { allowPrivate: false, ...options });
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(TargetRefused);
    return (error as TargetRefused).reason;
  }
};

describe('SSRF: where a webhook may go', () => {
  it.each([
    ['loopback', '127.0.0.1'],
    ['loopback', '127.8.9.10'],
    ['loopback', '[::1]'],
    ['private', '10.0.0.1'],
    ['private', '172.16.5.4'],
    ['private', '192.168.1.1'],
    ['uniqueLocal', '[fd12:3456::1]'],
    ['linkLocal', '169.254.169.254'],
    ['linkLocal', '[fe80::1]'],
    ['carrierGradeNat', '100.64.0.1'],
    ['multicast', '224.0.0.1'],
    ['multicast', '[ff02::1]'],
    ['unspecified', '0.0.0.0'],
    ['unspecified', '[::]'],
    ['broadcast', '255.255.255.255'],
    ['ipv4Mapped', '[::ffff:127.0.0.1]'],
    ['ipv4Mapped', '[::ffff:8.8.8.8]'],
    ['reserved', '192.0.2.10'],
    ['reserved', '198.51.100.10'],
    ['reserved', '203.0.113.10'],
    ['reserved', '[2001:db8::1]'],
  ])('refuses a literal %s address (%s)', async (range, host) => {
    expect(await refusal(`https://${host}/hook`)).toMatch(new RegExp(`non-public address .*${range}`));
  });

  it('accepts public addresses, literal or resolved, and answers the address to connect to', async () => {
    expect(await resolveTarget('https://93.184.215.14/x', { allowPrivate: false })).toMatchObject({ target: { address: '93.184.215.14', family: 4 } });
    expect(await resolveTarget('https://[2606:4700::1111]/x', { allowPrivate: false })).toMatchObject({ target: { address: '2606:4700::1111', family: 6 } });
    const resolve = async () => [{ address: '93.184.215.14', family: 4 as const }];
    expect((await resolveTarget('https://hooks.example.com/x', { allowPrivate: false, resolve })).target.address).toBe('93.184.215.14');
    expect(isPublicAddress('8.8.8.8')).toBe(true);
    expect(isPublicAddress('not an ip')).toBe(false);
  });

  it('refuses a name resolving to a private address, even one of several; fails closed when DNS fails', async () => {
    expect(await refusal('https://localhost/hook')).toMatch(/non-public address .*loopback/);
    const mixed = async () => [
      { address: '93.184.215.14', family: 4 as const },
      { address: '10.1.2.3', family: 4 as const },
    ];
    expect(await refusal('https://hooks.example.com/x', { resolve: mixed })).toMatch(/10\.1\.2\.3, private/);
    expect(await refusal('https://hooks.example.com/x', { resolve: async () => [] })).toBe('host name does not resolve');
    expect(await refusal('https://hooks.example.com/x', { resolve: () => Promise.reject(new Error('ENOTFOUND')) })).toBe('host name does not resolve');
    expect(await refusal('https://does-not-exist.invalid/x')).toBe('host name does not resolve');
  });

  it('refuses http, other schemes, credentials and garbage', async () => {
    expect(await refusal('http://93.184.215.14/x')).toBe('must be an https URL');
    expect(await refusal('ftp://93.184.215.14/x')).toBe('must be an https URL');
    expect(await refusal('https://a:b@93.184.215.14/x')).toBe('must not contain credentials');
    expect(await refusal('/relative')).toBe('must be an absolute URL');
  });

  it('WEBHOOKS_ALLOW_PRIVATE lifts it: http and private addresses pass', async () => {
    expect((await resolveTarget('http://127.0.0.1:9/x', { allowPrivate: true })).target.address).toBe('127.0.0.1');
    expect((await resolveTarget('https://10.0.0.1/x', { allowPrivate: true })).target.address).toBe('10.0.0.1');
    expect(await refusal('ftp://127.0.0.1/x', { allowPrivate: true })).toBe('must be an https URL');
  });
});

describe('signatures (Standard Webhooks)', () => {
  it('matches the specification’s example and a verifier written from the specification', () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const body = '{"test": 2432232314}';
    const headers = signedHeaders([secret], 'msg_p5jXN8AQM9LWM0D4loKWxJek', new Date(1614265330_000), body);
    expect(headers).toEqual({
      'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      'webhook-timestamp': '1614265330',
      'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    });
    expect(verifyStandardWebhook(secret, headers, body)).toBe(true);
    expect(verifyStandardWebhook(secret, headers, `${body} `)).toBe(false);
    expect(verifyStandardWebhook('whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=', headers, body)).toBe(false);
  });

  it('signs with both secrets during a rotation; each verifies alone', () => {
    const old = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const current = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    const body = JSON.stringify({ id: 'e', type: 'invoice.paid' });
    const headers = signedHeaders([current, old], 'evt_1', new Date(), body);
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(verifyStandardWebhook(current, headers, body)).toBe(true);
    expect(verifyStandardWebhook(old, headers, body)).toBe(true);
    expect(new Webhook(old).verify(body, headers)).toEqual({ id: 'e', type: 'invoice.paid' });
  });
});
