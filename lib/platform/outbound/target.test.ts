import { describe, expect, it } from 'vitest';
import { addressRange, isPublicAddress, resolveTarget, TargetRefused } from '.';

/* Where an outbound call (a webhook, the PA) may go: the URL forms refused, the DNS answers refused, the lift. */

const refusal = async (url: string, options: Partial<Parameters<typeof resolveTarget>[1]> = {}) => {
  try {
    await resolveTarget(url, { allowPrivate: false, ...options });
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(TargetRefused);
    return (error as TargetRefused).reason;
  }
};

describe('outbound targets', () => {
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
    // The WHATWG URL parser reads these as 127.0.0.1: decimal, hexadecimal, octal, shortened.
    ['loopback', '2130706433'],
    ['loopback', '0x7f000001'],
    ['loopback', '0177.0.0.1'],
    ['loopback', '127.1'],
    // IPv6 forms that carry an IPv4 address: compatible (::/96), mapped, translated, NAT64, 6to4, Teredo.
    ['ipv4Compatible', '[::127.0.0.1]'],
    ['ipv4Compatible', '[::7f00:1]'],
    ['ipv4Compatible', '[::10.0.0.1]'],
    ['ipv4Compatible', '[::8.8.8.8]'],
    ['ipv4Mapped', '[::ffff:7f00:1]'],
    ['ipv4Mapped', '[::ffff:169.254.169.254]'],
    ['rfc6145', '[::ffff:0:7f00:1]'],
    ['rfc6052', '[64:ff9b::7f00:1]'],
    ['rfc6052', '[64:ff9b::10.0.0.1]'],
    ['rfc6052', '[64:ff9b::808:808]'],
    ['rfc6052', '[64:ff9b:1::a00:1]'],
    ['6to4', '[2002:7f00:1::1]'],
    ['6to4', '[2002:a00:1::1]'],
    ['6to4', '[2002:c0a8:101::1]'],
    ['teredo', '[2001::1]'],
    ['deprecatedSiteLocal', '[fec0::1]'],
    ['discard', '[100::1]'],
    // Outside 2000::/3, the only global unicast block.
    ['reserved', '[::1:0:0:1]'],
    ['reserved', '[4000::1]'],
  ])('refuses a literal %s address (%s)', async (range, host) => {
    expect(await refusal(`https://${host}/hook`)).toMatch(new RegExp(`non-public address .*${range}\\)`));
  });

  it('classifies every IPv6 form of a private IPv4 as non-public (ipaddr.js calls ::7f00:1 unicast)', () => {
    for (const address of ['::7f00:1', '::a00:1', '::ffff:a00:1', '::ffff:0:a00:1', '64:ff9b::a00:1', '64:ff9b::c0a8:101', '2002:a00:1::', '2002:c0a8:101::1']) {
      expect([address, isPublicAddress(address)]).toEqual([address, false]);
    }
    expect(addressRange('::7f00:1')).toBe('ipv4Compatible');
    expect([addressRange('::'), addressRange('::1')]).toEqual(['unspecified', 'loopback']);
  });

  it('accepts public addresses, literal or resolved, and answers the address to connect to', async () => {
    expect(await resolveTarget('https://93.184.215.14/x', { allowPrivate: false })).toMatchObject({ target: { address: '93.184.215.14', family: 4 } });
    expect(await resolveTarget('https://[2606:4700::1111]/x', { allowPrivate: false })).toMatchObject({ target: { address: '2606:4700::1111', family: 6 } });
    const resolve = async () => [{ address: '93.184.215.14', family: 4 as const }];
    expect((await resolveTarget('https://hooks.example.com/x', { allowPrivate: false, resolve })).target.address).toBe('93.184.215.14');
    expect(isPublicAddress('8.8.8.8')).toBe(true);
    expect(isPublicAddress('2a01:e0a::1')).toBe(true);
    expect(isPublicAddress('not an ip')).toBe(false);
  });

  it('refuses a name resolving to a private address, even one of several; fails closed when DNS fails', async () => {
    expect(await refusal('https://localhost/hook', { resolve: async () => [{ address: '127.0.0.1', family: 4 }] })).toMatch(/non-public address .*loopback/);
    const mixed = async () => [
      { address: '93.184.215.14', family: 4 as const },
      { address: '10.1.2.3', family: 4 as const },
    ];
    expect(await refusal('https://hooks.example.com/x', { resolve: mixed })).toMatch(/10\.1\.2\.3, private/);
    expect(await refusal('https://hooks.example.com/x', { resolve: async () => [{ address: '::7f00:1', family: 6 }] })).toMatch(/ipv4Compatible/);
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

  it('the caller’s lift (allowPrivate) lets http and private addresses pass', async () => {
    expect((await resolveTarget('http://127.0.0.1:9/x', { allowPrivate: true })).target.address).toBe('127.0.0.1');
    expect((await resolveTarget('https://10.0.0.1/x', { allowPrivate: true })).target.address).toBe('10.0.0.1');
    expect(await refusal('ftp://127.0.0.1/x', { allowPrivate: true })).toBe('must be an https URL');
  });
});
