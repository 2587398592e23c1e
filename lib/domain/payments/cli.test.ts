import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { paymentAccounts } from '@/db/schema';
import { runCli } from '@/lib/composition/cli/program';
import { type FakeStripe, startFakeStripe, useFakeStripe, withoutStripe } from '@/lib/domain/payments/testing';
import { createTestOrg } from '@/lib/testing/fixtures';
import { paymentsCli } from './cli';

let fake: FakeStripe;
let restore: () => void;
beforeAll(async () => {
  fake = await startFakeStripe();
  restore = useFakeStripe(fake);
});
afterAll(async () => {
  restore();
  await fake.close();
});

async function cli(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { db: getDb, out: (l) => out.push(l), err: (l) => err.push(l) }, [paymentsCli]);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('payments:connect', () => {
  it('links an existing account and prints its readiness at once (--json)', async () => {
    const { org, db } = await createTestOrg();
    const account = fake.addAccount();
    const res = await cli('payments:connect', '--org', org.id, '--account', account.id, '--json');
    expect(res.code).toBe(0);
    expect(JSON.parse(res.out)).toEqual({
      org_id: org.id,
      account_id: account.id,
      charges_enabled: true,
      details_submitted: true,
      card_payments: 'active',
      sepa_debit_payments: 'active',
      requirements_due: [],
      refreshed_at: expect.stringMatching(/Z$/),
    });
    const [row] = await db.select().from(paymentAccounts).where(eq(paymentAccounts.org_id, org.id));
    expect(row).toMatchObject({ account_id: account.id, charges_enabled: true, sepa_debit_payments: 'active' });
  });

  it('says what an account that cannot take payments yet still needs; connecting another account replaces it', async () => {
    const { org, db } = await createTestOrg();
    const pending = fake.addAccount({ charges_enabled: false });
    const res = await cli('payments:connect', '--org', org.id, '--account', pending.id);
    expect(res.code).toBe(0);
    expect(res.out).toContain(`Connected ${pending.id} to org ${org.id}.`);
    expect(res.out).toMatch(/charges enabled: +no/);
    expect(res.out).toMatch(/SEPA debit: +inactive/);
    expect(res.out).toContain('requirements due:  external_account, tos_acceptance.date');
    expect(res.out).toContain('finish its onboarding');

    // Onboarding done at the provider: connecting again reads the new state.
    pending.charges_enabled = true;
    pending.capabilities = { card_payments: 'active', sepa_debit_payments: 'active' };
    pending.requirements.currently_due = [];
    expect((await cli('payments:connect', '--org', org.id, '--account', pending.id)).out).toMatch(/charges enabled: +yes/);

    const ready = fake.addAccount();
    expect((await cli('payments:connect', '--org', org.id, '--account', ready.id)).code).toBe(0);
    expect(await db.select({ account_id: paymentAccounts.account_id }).from(paymentAccounts).where(eq(paymentAccounts.org_id, org.id))).toEqual([
      { account_id: ready.id },
    ]);
  });

  it('refuses an unknown account, a malformed id, an unknown org, an account of another org; exit 1 with one line', async () => {
    const { org } = await createTestOrg();
    const unknown = await cli('payments:connect', '--org', org.id, '--account', 'acct_doesnotexist');
    expect([unknown.code, unknown.err]).toEqual([1, expect.stringMatching(/^error: The payment provider does not know/)]);

    expect((await cli('payments:connect', '--org', org.id, '--account', 'cus_123')).err).toMatch(/^error: account: a provider account id/);
    expect((await cli('payments:connect', '--org', '0190f3a0-0000-7000-8000-000000000001', '--account', fake.addAccount().id)).err).toMatch(/not found/i);

    const taken = fake.addAccount();
    expect((await cli('payments:connect', '--org', org.id, '--account', taken.id)).code).toBe(0);
    const other = await createTestOrg();
    const res = await cli('payments:connect', '--org', other.org.id, '--account', taken.id);
    expect([res.code, res.err]).toEqual([1, expect.stringContaining('already connected to another organisation')]);
    expect(await other.db.select().from(paymentAccounts).where(eq(paymentAccounts.org_id, other.org.id))).toEqual([]);
  });

  it('without STRIPE_SECRET_KEY: exit 1, payments are off', async () => {
    const { org } = await createTestOrg();
    await withoutStripe(async () => {
      const res = await cli('payments:connect', '--org', org.id, '--account', fake.addAccount().id);
      expect([res.code, res.err]).toEqual([1, expect.stringContaining('STRIPE_SECRET_KEY')]);
    });
  });

  it('--org and --account are required (exit 2, no database)', async () => {
    const res = await cli('payments:connect', '--org', 'x');
    expect(res.code).toBe(2);
    expect(res.err).toContain("required option '--account <acct_…>' not specified");
  });
});
