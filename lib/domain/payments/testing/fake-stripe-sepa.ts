import type { FakeStripe } from './fake-stripe';
import { type FakeRoute, type Json, missing, newId, now, required, StripeFailure, sessionIntentData } from './fake-stripe-shared';

/*
 * SEPA mandates on the fake: the setup a payer completes on a setup-mode Checkout (a setup intent, a SEPA payment
 * method attached to the session's customer, a mandate), what the bank does to a mandate later, detaching a method,
 * and off-session SEPA debits created with POST /v1/payment_intents (confirm + off_session), which stay `processing`
 * until the test settles them with `settleSepa` (fake-stripe-payments.ts). Each step emits the events Stripe would.
 */

export type FakeMandateStatus = 'active' | 'inactive' | 'pending';

export interface FakeSepa {
  /**
   * The payer signs the mandate on a setup-mode session: setup intent (succeeded, with the session's
   * setup_intent_data.metadata), payment method (IBAN ending `last4`) and mandate (`mandate`, active by default);
   * emits setup_intent.succeeded then checkout.session.completed.
   */
  completeSetup(sessionId: string, options?: { last4?: string; mandate?: FakeMandateStatus }): Promise<{ setup_intent: string; payment_method: string; mandate: string; statuses: number[] }>;
  /** The bank or the payer changes the mandate (e.g. revoked at the bank: inactive): mandate.updated. */
  updateMandate(mandateId: string, status: FakeMandateStatus): Promise<number[]>;
}

const FR_IBAN_BANK = '30006';

export function fakeSepa(fake: FakeStripe): FakeSepa {
  const find = (id: string, what: string) => {
    const found = fake.objects.get(id);
    if (!found || found.account === null) throw new Error(`fake Stripe: no ${what} ${id}`);
    return found as { account: string; object: Json };
  };
  const put = (account: string, object: Json) => {
    fake.objects.set(String(object.id), { account, object });
    return object;
  };

  async function completeSetup(sessionId: string, options: { last4?: string; mandate?: FakeMandateStatus } = {}) {
    const { account, object: session } = find(sessionId, 'checkout session');
    if (session.mode !== 'setup' || session.status !== 'open') throw new Error(`fake Stripe: session ${sessionId} is not an open setup session`);
    const pm = put(account, {
      id: newId('pm'),
      object: 'payment_method',
      type: 'sepa_debit',
      customer: session.customer,
      sepa_debit: { last4: options.last4 ?? '3000', country: 'FR', bank_code: FR_IBAN_BANK, fingerprint: newId('fp') },
      billing_details: { email: null, name: 'Titulaire du compte' },
      created: now(),
      livemode: false,
      metadata: {},
    });
    const mandate = put(account, {
      id: newId('mandate'),
      object: 'mandate',
      type: 'multi_use',
      status: options.mandate ?? 'active',
      payment_method: pm.id,
      payment_method_details: { type: 'sepa_debit', sepa_debit: { reference: newId('REF').toUpperCase(), url: `${fake.url}/mandates/view` } },
      customer_acceptance: { type: 'online', accepted_at: now(), online: { ip_address: '203.0.113.7', user_agent: 'Mozilla/5.0' } },
      livemode: false,
    });
    const intentData = sessionIntentData.get(session) ?? {};
    const si = put(account, {
      id: newId('seti'),
      object: 'setup_intent',
      status: 'succeeded',
      usage: 'off_session',
      customer: session.customer,
      payment_method: pm.id,
      mandate: mandate.id,
      allowed_payment_method_types: ['sepa_debit'],
      metadata: (intentData.metadata as Json | undefined) ?? {},
      created: now(),
      livemode: false,
    });
    Object.assign(session, { status: 'complete', setup_intent: si.id, url: null });
    const statuses = [await fake.emit(account, 'setup_intent.succeeded', si), await fake.emit(account, 'checkout.session.completed', session)];
    return { setup_intent: String(si.id), payment_method: String(pm.id), mandate: String(mandate.id), statuses };
  }

  async function updateMandate(mandateId: string, status: FakeMandateStatus) {
    const { account, object: mandate } = find(mandateId, 'mandate');
    mandate.status = status;
    return [await fake.emit(account, 'mandate.updated', mandate)];
  }

  return { completeSetup, updateMandate };
}

/** The SEPA API calls: retrieve setup intents, payment methods and mandates; detach; create an off-session debit. */
export function sepaRoutes(fake: FakeStripe): FakeRoute {
  const kinds: Record<string, string> = { setup_intents: 'setup_intent', payment_methods: 'payment_method', mandates: 'mandate' };
  const owned = (id: string, account: string | null, kind: string) => {
    const found = fake.objects.get(id);
    if (!found || found.account !== account || found.object.object !== kind) throw missing(kind, id);
    return found.object;
  };

  function createDebit(account: string | null, body: Json): [number, Json] {
    if (!account) throw new StripeFailure(400, 'invalid_request_error', 'Paraphe debits on connected accounts only (Stripe-Account header).');
    if ('payment_method_types' in body) throw new StripeFailure(400, 'invalid_request_error', 'Received unknown parameter: payment_method_types', 'parameter_unknown', 'payment_method_types');
    for (const p of ['amount', 'currency', 'customer', 'payment_method']) if (!body[p]) throw required(p);
    if (body.confirm !== 'true' || body.off_session !== 'true') throw new StripeFailure(400, 'invalid_request_error', 'The fake only serves confirmed off-session debits (confirm, off_session).');
    const pm = owned(String(body.payment_method), account, 'payment_method');
    if (pm.type !== 'sepa_debit') throw new StripeFailure(400, 'invalid_request_error', 'The payment method is not a SEPA debit.', 'payment_method_invalid_parameter', 'payment_method');
    if (pm.customer !== body.customer) {
      throw new StripeFailure(400, 'invalid_request_error', `The provided PaymentMethod ${pm.id} is not attached to customer ${body.customer}.`, 'payment_method_invalid_parameter', 'payment_method');
    }
    if (body.mandate) {
      const mandate = owned(String(body.mandate), account, 'mandate');
      if (mandate.payment_method !== pm.id || mandate.status !== 'active') {
        throw new StripeFailure(400, 'invalid_request_error', `The mandate ${mandate.id} cannot be used with this payment.`, 'mandate_invalid', 'mandate');
      }
    }
    const pi = fake.createPaymentIntent(account, { amount: Number(body.amount), method: 'sepa_debit', metadata: (body.metadata as Json) ?? {}, customer: String(body.customer) });
    // A confirmed SEPA debit is processing for days; the test settles it with settleSepa.
    Object.assign(pi, { status: 'processing', payment_method: pm.id, mandate: body.mandate ?? null, description: body.description ?? null, off_session: true });
    return [200, pi];
  }

  return ({ method, path, account, body }) => {
    if (method === 'POST' && path === '/v1/payment_intents') return createDebit(account, body);
    const detach = /^\/v1\/payment_methods\/([^/]+)\/detach$/.exec(path);
    if (method === 'POST' && detach) {
      const pm = owned(detach[1]!, account, 'payment_method');
      if (!pm.customer) throw new StripeFailure(400, 'invalid_request_error', 'The payment method you provided is not attached to a customer so detachment is impossible.');
      pm.customer = null;
      return [200, pm];
    }
    const m = /^\/v1\/(setup_intents|payment_methods|mandates)\/([^/]+)$/.exec(path);
    if (method !== 'GET' || !m) return undefined;
    return [200, owned(m[2]!, account, kinds[m[1]!]!)];
  };
}
