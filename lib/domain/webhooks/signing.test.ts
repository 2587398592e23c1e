import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { signedHeaders } from './signing';
import { verifyStandardWebhook } from './testing';

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
