import { afterEach, describe, expect, it, vi } from 'vitest';

// The CSRF token next-auth's client would fetch: known here, so the test sees it posted.
vi.mock('next-auth/react', () => ({ getCsrfToken: async () => 'csrf-token-1' }));
vi.resetModules();
const { switchOrg } = await import('./switch-org');

const answer = (status: number, body: unknown) =>
  vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }));

afterEach(() => vi.restoreAllMocks());

describe('the sidebar’s org switch (« Organisation active »)', () => {
  it('posts the wanted org with the CSRF token, and works when the session answered names it', async () => {
    const fetch = answer(200, { userId: 'u1', orgId: 'org-b' });
    expect(await switchOrg('org-b')).toEqual({ ok: true });
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/api/auth/session');
    expect(init).toMatchObject({ method: 'POST' });
    expect(JSON.parse(String(init!.body))).toEqual({ csrfToken: 'csrf-token-1', data: { orgId: 'org-b' } });
  });

  it.each([403, 500, 502])('an answer %i is a failure, said in French (the page is not reloaded as if it worked)', async (status) => {
    answer(status, { message: 'error' });
    expect(await switchOrg('org-b')).toEqual({ ok: false, notice: 'Le changement d’organisation a échoué : réessayez dans un instant.' });
  });

  it('a 200 whose session keeps the former org (not a member of the wanted one) is refused', async () => {
    answer(200, { userId: 'u1', orgId: 'org-a' });
    expect(await switchOrg('org-b')).toEqual({ ok: false, notice: 'Vous n’êtes pas membre de cette organisation : l’organisation active n’a pas changé.' });
  });

  it('the network down is a failure too', async () => {
    vi.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('Failed to fetch'));
    expect(await switchOrg('org-b')).toMatchObject({ ok: false });
  });
});
