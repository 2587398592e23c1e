import { beforeAll, describe, expect, it } from 'vitest';
import * as route from '@/app/v1/signature/email-suggestion/route';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';

let org: TestOrg;
beforeAll(async () => {
  org = await createTestOrg();
});
const suggest = async (body: unknown, token?: string) =>
  call(route.POST, 'POST', '/v1/signature/email-suggestion', { token: token ?? (await org.key(['signature:read'])), body });

describe('POST /v1/signature/email-suggestion', () => {
  it('corrects a mistyped common domain, French providers included', async () => {
    for (const [typed, expected] of [
      ['jean@gmial.com', 'jean@gmail.com'],
      ['claire@hotmial.fr', 'claire@hotmail.fr'],
      ['paul@wanado.fr', 'paul@wanadoo.fr'],
      ['marie@laposte.nte', 'marie@laposte.net'],
      ['luc@gmail.con', 'luc@gmail.com'],
    ]) {
      const res = await suggest({ email: typed });
      expect(res.status, typed).toBe(200);
      expect(res.body).toEqual({ suggestion: expected });
    }
  });

  it('a correct address, an unknown company domain, or something that is not an address: null', async () => {
    for (const email of ['jean@gmail.com', 'Jean@Orange.fr', 'compta@acme-industrie.fr', 'not an address', '']) {
      const res = await suggest({ email });
      expect(res.status, email).toBe(200);
      expect(res.body).toEqual({ suggestion: null });
    }
  });

  it('422 with the field on a non-string or a missing email', async () => {
    for (const body of [{ email: 42 }, { email: null }, {}, { email: 'a@b.fr', extra: true }]) {
      const res = await suggest(body);
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ code: 'validation_error' });
    }
    expect((await suggest({ email: 42 })).body.field).toBe('email');
  });

  it('needs a key with a signature scope: 401 without one, 403 with another module’s, write implies read', async () => {
    const anonymous = await call(route.POST, 'POST', '/v1/signature/email-suggestion', { body: { email: 'a@gmial.com' } });
    expect(anonymous.status).toBe(401);
    expect((await suggest({ email: 'a@gmial.com' }, await org.key(['invoice:read']))).status).toBe(403);
    expect((await suggest({ email: 'a@gmial.com' }, await org.key(['signature:write']))).body).toEqual({ suggestion: 'a@gmail.com' });
  });

  it('GET is not allowed', async () => {
    expect((await call(route.GET, 'GET', '/v1/signature/email-suggestion', { token: await org.key() })).status).toBe(405);
  });
});
