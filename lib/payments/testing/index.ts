export { decodeForm, type FakeAccount, type FakeStripe, startFakeStripe, useFakeStripe } from './fake-stripe';
