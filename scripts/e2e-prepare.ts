import '@/lib/composition/modules';
import { closeDatabase, getDb } from '@/db/client';
import { demoOrgId } from '@/lib/composition/demo-data';
import { seedDemo } from '@/lib/composition/seed';
import { connectAccount } from '@/lib/domain/payments';
import { loadSealingIdentity } from '@/lib/domain/signature';

/*
 * Before the e2e server starts (playwright.config.ts), on its fresh embedded database: the demo org seeded as the
 * server would seed it, then linked to the fake Stripe's ready account (FAKE_STRIPE_ACCOUNT) as `payments:connect`
 * links one. The CLI cannot do it once the server holds the database (PGlite is one process at a time), and the
 * server seeds the org only at its start. Needs the fake running (STRIPE_API_BASE) and STRIPE_SECRET_KEY.
 * Also makes sure the development sealing certificate exists: the e2e server runs `next start` (production), which
 * needs SIGNATURE_CERT_PATH, and playwright.config.ts points it at that file.
 */
const seal = loadSealingIdentity({ ...process.env, NODE_ENV: 'development', SIGNATURE_CERT_PATH: '' });
console.log(`[e2e-prepare] sealing certificate: ${seal.subject}`);
const db = await getDb();
const seeded = await seedDemo(db);
const orgId = seeded?.orgId ?? (await demoOrgId(db));
if (!orgId) throw new Error('e2e-prepare: no demo org');
const account = await connectAccount(db, orgId, process.env.FAKE_STRIPE_ACCOUNT ?? 'acct_e2e');
console.log(`[e2e-prepare] demo org ${orgId} connected to ${account.account_id} (charges enabled: ${account.charges_enabled})`);
await closeDatabase();
