import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { companyRegistryUrl } from '@/lib/platform/config';
import { lookupCompany } from '.';
import { type FakeRegistry, startFakeRegistry } from './testing';

let fake: FakeRegistry;
beforeAll(async () => {
  fake = await startFakeRegistry();
});
afterAll(async () => fake.close());
beforeEach(() => fake.set({}));

const lookup = (q: string, timeoutMs?: number) => lookupCompany(q, { baseUrl: fake.url, timeoutMs });

describe('lookupCompany (recherche-entreprises)', () => {
  it('fills the legal identity of a SIREN from the head office, legal form mapped, VAT number computed', async () => {
    expect(await lookup('732 829 320')).toEqual({
      ok: true,
      company: {
        siren: '732829320',
        siret: '73282932000074',
        legal_name: 'ATELIER PARAPHE',
        legal_form: 'SAS',
        address: '12 RUE DE LA PAIX',
        postal_code: '75002',
        city: 'PARIS',
        vat_number: 'FR44732829320',
      },
    });
    expect(fake.requests.at(-1)).toBe('GET /search?q=732829320&page=1&per_page=5');
  });

  it('takes the establishment of a SIRET, not the head office', async () => {
    expect(await lookup('73282932000116')).toMatchObject({ ok: true, company: { siret: '73282932000116', address: '3 QUAI SAINT-VINCENT', postal_code: '69001', city: 'LYON' } });
  });

  it('says not found, invalid (without asking) or unreachable (error, timeout, closed port)', async () => {
    expect(await lookup('552032534')).toEqual({ ok: false, reason: 'not_found' });
    const asked = fake.requests.length;
    expect(await lookup('732829321')).toEqual({ ok: false, reason: 'invalid' });
    expect(await lookup('abc')).toEqual({ ok: false, reason: 'invalid' });
    expect(fake.requests.length).toBe(asked);
    fake.set({ status: 500 });
    expect(await lookup('732829320')).toEqual({ ok: false, reason: 'unreachable' });
    fake.set({ delayMs: 500 });
    const started = Date.now();
    expect(await lookup('732829320', 100)).toEqual({ ok: false, reason: 'unreachable' });
    expect(Date.now() - started).toBeLessThan(450);
    expect(await lookupCompany('732829320', { baseUrl: 'http://127.0.0.1:9' })).toEqual({ ok: false, reason: 'unreachable' });
  });
});

describe('COMPANY_REGISTRY_URL', () => {
  it('is off unless set, and must be an http(s) URL', () => {
    expect(companyRegistryUrl({})).toBeNull();
    expect(companyRegistryUrl({ COMPANY_REGISTRY_URL: ' ' })).toBeNull();
    expect(companyRegistryUrl({ COMPANY_REGISTRY_URL: 'https://recherche-entreprises.api.gouv.fr/' })).toBe('https://recherche-entreprises.api.gouv.fr');
    expect(() => companyRegistryUrl({ COMPANY_REGISTRY_URL: 'ftp://x' })).toThrow(/http or https/);
    expect(() => companyRegistryUrl({ COMPANY_REGISTRY_URL: 'nope' })).toThrow(/must be a URL/);
  });
});
