export { decodeForm, type FakeAccount, type FakeEvent, type FakeRoute, type FakeStripe, startFakeStripe, useFakeStripe } from './fake-stripe';
export type { FakeWebhook } from './fake-stripe-events';
