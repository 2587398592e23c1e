import { afterAll, beforeAll, expect, it } from 'vitest';
import { type FakeRegistry, startFakeRegistry } from '@/lib/domain/company-registry/testing';
import { lookupRegistry } from './company-registry';

// "Remplir depuis le SIREN" behind the contact and organisation forms: off by default, French sentences otherwise.
let fake: FakeRegistry;
beforeAll(async () => {
  fake = await startFakeRegistry();
});
afterAll(async () => fake.close());

it('answers the company, or why not in French; asks nothing while COMPANY_REGISTRY_URL is unset', async () => {
  const on = { COMPANY_REGISTRY_URL: fake.url };
  expect(await lookupRegistry('73282932000074', on)).toMatchObject({ company: { legal_name: 'ATELIER PARAPHE', siret: '73282932000074' } });
  expect(await lookupRegistry('552032534', on)).toEqual({ problem: 'Aucune entreprise avec ce numéro dans le registre des entreprises.' });
  expect(await lookupRegistry('12', on)).toEqual({ problem: 'Saisissez un SIREN (9 chiffres) ou un SIRET (14 chiffres) valide.' });
  fake.set({ status: 503 });
  expect(await lookupRegistry('732829320', on)).toEqual({
    problem: 'Le registre des entreprises ne répond pas : réessayez plus tard ou saisissez l’identité à la main.',
  });
  const asked = fake.requests.length;
  expect(await lookupRegistry('732829320', {})).toEqual({ problem: 'La recherche dans le registre des entreprises n’est pas activée.' });
  expect(fake.requests.length).toBe(asked);
});
