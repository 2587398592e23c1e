import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, isPaymentPage, isTokenPage, newNonce, securityHeaders, servedOverHttps } from './security-headers';

const directive = (policy: string, name: string) => policy.split('; ').find((d) => d.startsWith(`${name} `));

describe('security headers', () => {
  it('lets scripts run only with the nonce, and loads nothing from another origin', () => {
    const policy = contentSecurityPolicy({ nonce: 'abc123', https: false, development: false });
    expect(directive(policy, 'script-src')).toBe("script-src 'self' 'nonce-abc123' 'strict-dynamic'");
    expect(directive(policy, 'default-src')).toBe("default-src 'self'");
    expect(directive(policy, 'frame-ancestors')).toBe("frame-ancestors 'self'");
    expect(directive(policy, 'object-src')).toBe("object-src 'none'");
    expect(directive(policy, 'form-action')).toBe("form-action 'self'");
    expect(policy).not.toMatch(/https?:\/\//);
    expect(policy).not.toContain('upgrade-insecure-requests');
  });

  it('adds eval only for next dev, and the upgrade of insecure requests only over https', () => {
    expect(directive(contentSecurityPolicy({ nonce: 'n', https: false, development: true }), 'script-src')).toContain("'unsafe-eval'");
    expect(contentSecurityPolicy({ nonce: 'n', https: true, development: false })).toContain('upgrade-insecure-requests');
  });

  it('sends HSTS over https only, and the other headers always', () => {
    const plain = securityHeaders({ nonce: 'n', https: false, development: false });
    expect(plain).not.toHaveProperty('Strict-Transport-Security');
    expect(plain).toMatchObject({
      'X-Frame-Options': 'SAMEORIGIN',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'same-origin',
      'Cross-Origin-Opener-Policy': 'same-origin',
    });
    expect(plain['Permissions-Policy']).toContain('camera=()');
    expect(securityHeaders({ nonce: 'n', https: true, development: false })['Strict-Transport-Security']).toBe('max-age=31536000; includeSubDomains');
  });

  it('knows https from the request, a proxy saying so, or an https base URL', () => {
    expect(servedOverHttps('https://app.example/x', null, 'http://localhost:3000')).toBe(true);
    expect(servedOverHttps('http://10.0.0.2/x', 'https', 'http://localhost:3000')).toBe(true);
    expect(servedOverHttps('http://10.0.0.2/x', 'https, http', 'http://localhost:3000')).toBe(true);
    expect(servedOverHttps('http://localhost:3000/x', null, 'https://paraphe.example')).toBe(true);
    expect(servedOverHttps('http://localhost:3000/x', 'http', 'http://localhost:3000')).toBe(false);
  });

  it('makes a fresh 128-bit nonce each time', () => {
    const nonces = new Set(Array.from({ length: 100 }, newNonce));
    expect(nonces.size).toBe(100);
    expect(Buffer.from([...nonces][0] as string, 'base64')).toHaveLength(16);
  });

  it('treats the payer’s and the signer’s secret-link pages and the signer’s API as token pages; only the payer’s post to checkout', () => {
    for (const path of ['/pay/abc', '/pay/abc/pdf', '/sign/abc', '/sign/abc?lang=en', '/api/sign/abc', '/api/sign/abc/code/verify']) expect(isTokenPage(path), path).toBe(true);
    for (const path of ['/pay', '/sign', '/api/signer', '/signature', '/v1/signature/envelopes', '/api/stripe/webhook']) expect(isTokenPage(path), path).toBe(false);
    expect(isPaymentPage('/pay/abc/checkout')).toBe(true);
    expect(isPaymentPage('/sign/abc')).toBe(false);
  });
});
