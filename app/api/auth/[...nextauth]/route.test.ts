import { describe, expect, it } from 'vitest';
import { call } from '@/lib/testing/http';
import { GET, POST } from './route';

describe('/api/auth', () => {
  it('refuses a password, key or token in the query string before next-auth sees it', async () => {
    for (const [handler, method, path] of [
      [GET, 'GET', '/api/auth/callback/credentials?email=a%40b.fr&password=secret'],
      [POST, 'POST', '/api/auth/callback/credentials?password=secret'],
      [GET, 'GET', '/api/auth/signin?callbackUrl=%2F&access_token=x'],
      [GET, 'GET', '/api/auth/session?apiKey=x'],
    ] as const) {
      const res = await call(handler as never, method, path, { params: { nextauth: path.split('?')[0]!.split('/').slice(3) } as never });
      expect(res.status, path).toBe(400);
      expect(res.body).toEqual({ code: 'credentials_in_query', message: expect.stringContaining('never go in a URL'), field: expect.any(String) });
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
  });
});
