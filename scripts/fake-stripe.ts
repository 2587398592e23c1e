// The fake alone, not lib/domain/payments/testing's index: that one also brings the tests' vitest fixtures.
import { startFakeStripe } from '@/lib/domain/payments/testing/fake-stripe';

/*
 * The fake Stripe as a process, for the e2e journeys and local trials: `tsx scripts/fake-stripe.ts`. Point the app
 * at it with STRIPE_API_BASE=http://127.0.0.1:<port> and any STRIPE_SECRET_KEY=sk_test_…; its hosted Checkout page
 * (/checkout/<session>) pays, fails or cancels, and its events are signed and POSTed to the app's webhook.
 *
 *   FAKE_STRIPE_PORT         default 12111
 *   FAKE_STRIPE_ACCOUNT      the id of the one ready connected account (default acct_e2e): payments:connect it
 *   FAKE_STRIPE_WEBHOOK_URL  default http://127.0.0.1:3210/api/stripe/webhook
 *   STRIPE_WEBHOOK_SECRET    the secret events are signed with (default whsec_e2e); the app needs the same
 *   FAKE_STRIPE_REFUND_SETTLE_MS  a refund asked through the API succeeds that long after (default 1500; pending till then)
 */
const port = Number(process.env.FAKE_STRIPE_PORT ?? 12111);
const fake = await startFakeStripe({ port });
const account = fake.addAccount({ id: process.env.FAKE_STRIPE_ACCOUNT ?? 'acct_e2e' });
fake.refundAutoSettleMs = Number(process.env.FAKE_STRIPE_REFUND_SETTLE_MS ?? 1500);
fake.webhook = {
  url: process.env.FAKE_STRIPE_WEBHOOK_URL ?? 'http://127.0.0.1:3210/api/stripe/webhook',
  secret: process.env.STRIPE_WEBHOOK_SECRET ?? 'whsec_e2e',
};
console.log(`[fake-stripe] ${fake.url} (account ${account.id}, events to ${fake.webhook.url})`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    await fake.close();
    process.exit(0);
  });
}
