export { decodeForm, type FakeAccount, type FakeEvent, type FakeRoute, type FakeStripe, startFakeStripe, useFakeStripe, withoutStripe } from './fake-stripe';
export { type ConnectedStripe, connectedStripe } from './connected-stripe';
export type { CheckoutOutcome, FakeMethod, FakePayments } from './fake-stripe-payments';
export type { FakeWebhook } from './fake-stripe-events';
export { TEST_WEBHOOK_SECRET, useStripeWebhook } from './webhook-bridge';
export { completeOnboarding, connectRoutes } from './fake-stripe-connect';
export type { FakeRefunds } from './fake-stripe-refunds';
