import '@/lib/modules';
import { closeDatabase, getDb } from '@/db/client';
import { demoOrgId } from '@/lib/orgs/demo-data';
import { seedDemo } from '@/lib/orgs/seed';
import { connectAccount } from '@/lib/payments';

/*
 * Before the e2e server starts (playwright.config.ts), on its fresh embedded database: the demo org seeded as the
 * server would seed it, then linked to the fake Stripe's ready account (FAKE_STRIPE_ACCOUNT) as `payments:connect`
 * links one. The CLI cannot do it once the server holds the database (PGlite is one process at a time), and the
 * server seeds the org only at its start. Needs the fake running (STRIPE_API_BASE) and STRIPE_SECRET_KEY.
 */
const db = await getDb();
const seeded = await seedDemo(db);
const orgId = seeded?.orgId ?? (await demoOrgId(db));
if (!orgId) throw new Error('e2e-prepare: no demo org');
const account = await connectAccount(db, orgId, process.env.FAKE_STRIPE_ACCOUNT ?? 'acct_e2e');
console.log(`[e2e-prepare] demo org ${orgId} connected to ${account.account_id} (charges enabled: ${account.charges_enabled})`);
await closeDatabase();
