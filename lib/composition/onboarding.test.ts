import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { invoiceSettings } from '@/db/schema';
import { ContactCreate, createContact } from '@/lib/domain/contacts';
import { createDocument, DocumentCreate } from '@/lib/domain/documents';
import { connectAccount, type PaymentProvider } from '@/lib/domain/payments';
import { onboardingProgress, onboardingSteps } from './onboarding';
import { createOrg, updateOrgIdentity } from '@/lib/platform/orgs';

const freshOrg = async () => {
  const db = await getDb();
  return { db, org: await createOrg(db, { name: `Nouvelle ${randomUUID().slice(0, 8)}` }) };
};
const doneKeys = async (db: Awaited<ReturnType<typeof getDb>>, orgId: string) =>
  (await onboardingSteps(db, orgId)).filter((s) => s.done).map((s) => s.key);
const setSettings = (db: Awaited<ReturnType<typeof getDb>>, orgId: string, values: { iban?: string; einvoicing_enabled?: boolean }) =>
  db.insert(invoiceSettings).values({ org_id: orgId, ...values }).onConflictDoUpdate({ target: invoiceSettings.org_id, set: values });
const provider = (charges_enabled: boolean) =>
  ({
    retrieveAccount: async (account_id: string) => ({
      account_id,
      charges_enabled,
      details_submitted: charges_enabled,
      card_payments: charges_enabled ? 'active' : 'inactive',
      sepa_debit_payments: 'inactive',
      requirements_due: charges_enabled ? [] : ['external_account'],
    }),
  }) as unknown as PaymentProvider;

it('opens every step for a fresh org, each with a French label and the page that completes it', async () => {
  const { db, org } = await freshOrg();
  const steps = await onboardingSteps(db, org.id);
  expect(steps.map((s) => [s.key, s.done])).toEqual([
    ['identity', false],
    ['bank_details', false],
    ['first_client', false],
    ['first_quote', false],
    ['online_payments', false],
    ['einvoicing', false],
  ]);
  for (const step of steps) expect(step.href).toMatch(/^\//);
  expect(onboardingProgress(steps)).toEqual({ done: 0, total: 6, complete: false });
});

it('flips exactly the step each action completes, and only for its own org', async () => {
  const { db, org } = await freshOrg();
  const other = await freshOrg();
  const expectDone = async (keys: string[]) => {
    expect(await doneKeys(db, org.id)).toEqual(keys);
    expect(await doneKeys(db, other.org.id)).toEqual([]);
  };

  await updateOrgIdentity(db, org.id, {
    name: org.name,
    legal_name: 'Nouvelle SAS',
    legal_form: 'SAS',
    share_capital_cents: 100_000,
    siren: '732829320',
    siret: '73282932000074',
    vat_number: 'FR44732829320',
    rcs: 'RCS Paris 732 829 320',
    address: '12 rue de la Paix',
    postal_code: '75002',
    city: 'Paris',
  });
  await expectDone(['identity']);

  await setSettings(db, org.id, { iban: '   ' });
  await expectDone(['identity']);
  await setSettings(db, org.id, { iban: 'FR7630006000011234567890189' });
  await expectDone(['identity', 'bank_details']);

  const client = await createContact(db, org.id, ContactCreate.parse({ type: 'particulier', first_name: 'Claire', last_name: 'Morel' }));
  await expectDone(['identity', 'bank_details', 'first_client']);

  // An invoice is not a quote.
  await createDocument(db, org.id, DocumentCreate.parse({ type: 'facture', contact_id: client.id, items: [] }));
  await expectDone(['identity', 'bank_details', 'first_client']);
  await createDocument(db, org.id, DocumentCreate.parse({ type: 'devis', contact_id: client.id, items: [] }));
  await expectDone(['identity', 'bank_details', 'first_client', 'first_quote']);

  // A connected account still in onboarding does not count; one that can take payments does.
  const account = `acct_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  await connectAccount(db, org.id, account, provider(false));
  await expectDone(['identity', 'bank_details', 'first_client', 'first_quote']);
  await connectAccount(db, org.id, account, provider(true));
  await expectDone(['identity', 'bank_details', 'first_client', 'first_quote', 'online_payments']);

  await setSettings(db, org.id, { einvoicing_enabled: true });
  const steps = await onboardingSteps(db, org.id);
  expect(steps.every((s) => s.done)).toBe(true);
  expect(onboardingProgress(steps)).toEqual({ done: 6, total: 6, complete: true });
  expect(await doneKeys(db, other.org.id)).toEqual([]);
});
