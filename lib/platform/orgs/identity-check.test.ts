import { expect, it } from 'vitest';
import { createTestOrg } from '@/lib/testing/fixtures';
import { missingLegalMentions } from './identity-check';
import { updateOrgIdentity } from './orgs';

it('lists the legal mentions an invoice would lack, and none once complete', async () => {
  const { db, org } = await createTestOrg();
  expect(missingLegalMentions(org)).toEqual(['capital social', 'immatriculation RCS']);
  const bare = await updateOrgIdentity(db, org.id, { name: 'Solo' });
  expect(missingLegalMentions(bare)).toEqual(['dénomination sociale', 'forme juridique', 'SIREN', 'SIRET', 'n° de TVA intracommunautaire', 'adresse du siège']);
  const complete = await updateOrgIdentity(db, org.id, { ...org, share_capital_cents: 100_000, rcs: 'RCS Paris 732 829 320' });
  expect(missingLegalMentions(complete)).toEqual([]);
});
