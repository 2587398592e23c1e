import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkoutPage } from './fake-stripe-checkout-page';
import { deliverEvent, type FakeWebhook, postEvent } from './fake-stripe-events';
import { type FakePayments, fakePayments, paymentRoutes } from './fake-stripe-payments';
import { type FakeRefunds, fakeRefunds } from './fake-stripe-refunds';
import { type FakeSepa, fakeSepa, sepaRoutes } from './fake-stripe-sepa';
import {
  accountJson,
  decodeForm,
  type FakeAccount,
  type FakeEvent,
  type FakeRequest,
  type FakeRoute,
  type Json,
  missing,
  newId,
  now,
  required,
  StripeFailure,
  sessionIntentData,
} from './fake-stripe-shared';

export { decodeForm, type FakeAccount, type FakeEvent, type FakeRequest, type FakeRoute } from './fake-stripe-shared';

/**
 * A stateful stand-in for the Stripe API, on a random local port, for the real SDK pointed at it through
 * STRIPE_API_BASE. It serves what Paraphe calls: accounts (GET), account links, customers, checkout sessions
 * (payment and setup mode, create and retrieve), each object kept per connected account (`Stripe-Account`), with
 * Stripe's error shape and idempotency keys. Accounts are created by the test (`addAccount`), as onboarding would.
 * Events the fake's state changes cause are signed with the SDK's test signer and POSTed to `webhook`; money
 * (payment intents, charges, refunds, disputes, the hosted Checkout page) is in fake-stripe-payments.ts.
 */

export interface FakeStripe extends FakePayments, FakeSepa, FakeRefunds {
  url: string;
  requests: FakeRequest[];
  accounts: Map<string, FakeAccount>;
  /** Objects created on a connected account, by id (customers, checkout sessions). */
  objects: Map<string, { account: string | null; object: Json }>;
  /** Where events are delivered (the app's POST /api/stripe/webhook) and the secret they are signed with; null: kept only. */
  webhook: FakeWebhook | null;
  /** Every event built, in order, delivered or not. */
  events: FakeEvent[];
  /** Builds a Stripe event {id: evt_…, type, account, data: {object}}, signs it and POSTs it to `webhook`: the HTTP status (0 without a webhook). */
  emit(account: string | null, type: string, object: Json): Promise<number>;
  /** Delivers an event again, as Stripe retries (same id, fresh signature). */
  redeliver(event: FakeEvent): Promise<number>;
  /** An object of that account, or Stripe's 404 (a route's check that the caller owns it). */
  own(id: string, account: string | null, what: string): Json;
  /** Adds API routes (fake-stripe-*.ts), tried before the 404. */
  use(route: FakeRoute): void;
  addAccount(overrides?: Partial<Omit<FakeAccount, 'capabilities' | 'requirements'>> & Partial<Pick<FakeAccount, 'capabilities' | 'requirements'>>): FakeAccount;
  reset(): void;
  close(): Promise<void>;
}

export async function startFakeStripe(options: { port?: number } = {}): Promise<FakeStripe> {
  const requests: FakeRequest[] = [];
  const accounts = new Map<string, FakeAccount>();
  const objects = new Map<string, { account: string | null; object: Json }>();
  const idempotent = new Map<string, { status: number; body: Json }>();
  const routes: FakeRoute[] = [];
  const events: FakeEvent[] = [];
  let base = '';

  const own = (id: string, account: string | null, what: string) => {
    const found = objects.get(id);
    if (!found || found.account !== account) throw missing(what, id);
    return found.object;
  };


  function route(method: string, path: string, account: string | null, body: Json): [number, Json] {
    const idIn = (pattern: RegExp) => pattern.exec(path)?.[1];
    const accountId = method === 'GET' ? idIn(/^\/v1\/accounts\/([^/]+)$/) : undefined;
    if (accountId) {
      const a = accounts.get(accountId);
      if (!a) throw new StripeFailure(403, 'invalid_request_error', `The provided key does not have access to account '${accountId}' (or that account does not exist).`, 'account_invalid');
      return [200, accountJson(a, { type: 'standard', metadata: {} })];
    }
    if (method === 'POST' && path === '/v1/account_links') {
      for (const p of ['account', 'type', 'refresh_url', 'return_url']) if (!body[p]) throw required(p);
      if (!accounts.has(String(body.account))) throw missing('account', String(body.account));
      return [200, { object: 'account_link', created: now(), expires_at: now() + 300, url: `${base}/connect/onboarding/${newId('al')}?account=${body.account}` }];
    }
    if (method === 'POST' && path === '/v1/customers') {
      const customer = { id: newId('cus'), object: 'customer', created: now(), email: body.email ?? null, name: body.name ?? null, metadata: body.metadata ?? {} };
      objects.set(customer.id, { account, object: customer });
      return [200, customer];
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') return [200, createSession(account, body)];
    const sessionId = method === 'GET' ? idIn(/^\/v1\/checkout\/sessions\/([^/]+)$/) : undefined;
    if (sessionId) return [200, own(sessionId, account, 'checkout.session')];
    const customerId = method === 'GET' ? idIn(/^\/v1\/customers\/([^/]+)$/) : undefined;
    if (customerId) return [200, own(customerId, account, 'customer')];
    for (const extra of routes) {
      const answer = extra({ method, path, account, body });
      if (answer) return answer;
    }
    throw new StripeFailure(404, 'invalid_request_error', `Unrecognized request URL (${method}: ${path}).`);
  }

  function createSession(account: string | null, body: Json): Json {
    if (!account) throw new StripeFailure(400, 'invalid_request_error', 'Paraphe creates sessions on connected accounts only (Stripe-Account header).');
    if (!accounts.has(account)) throw missing('account', account);
    if ('payment_method_types' in body) throw new StripeFailure(400, 'invalid_request_error', 'Received unknown parameter: payment_method_types', 'parameter_unknown', 'payment_method_types');
    for (const p of ['mode', 'success_url']) if (!body[p]) throw required(p);
    const mode = String(body.mode);
    if (mode !== 'payment' && mode !== 'setup') throw new StripeFailure(400, 'invalid_request_error', `Invalid mode: ${mode}`, 'parameter_invalid_empty', 'mode');
    const items = (body.line_items ?? []) as Array<{ quantity?: string; price_data?: { unit_amount?: string; currency?: string } }>;
    if (mode === 'payment' && !items.length) throw required('line_items');
    if (mode === 'setup' && !body.customer) throw required('customer');
    const amount = mode === 'payment' ? items.reduce((sum, i) => sum + Number(i.price_data?.unit_amount ?? 0) * Number(i.quantity ?? 1), 0) : null;
    const customer = body.customer ? String(body.customer) : null;
    if (customer) own(customer, account, 'customer');
    const id = newId(mode === 'payment' ? 'cs_test_a' : 'cs_test_c');
    const session = {
      id,
      object: 'checkout.session',
      mode,
      status: 'open',
      payment_status: mode === 'payment' ? 'unpaid' : 'no_payment_required',
      url: `${base}/checkout/${id}`,
      amount_total: amount,
      currency: mode === 'payment' ? (items[0]?.price_data?.currency ?? 'eur') : String(body.currency ?? 'eur'),
      allowed_payment_method_types: (body.allowed_payment_method_types as string[] | undefined) ?? null,
      customer,
      customer_email: body.customer_email ?? null,
      success_url: body.success_url,
      cancel_url: body.cancel_url ?? null,
      metadata: body.metadata ?? {},
      payment_intent: null,
      setup_intent: null,
      created: now(),
      expires_at: now() + 86_400,
    };
    objects.set(id, { account, object: session });
    sessionIntentData.set(session, ((mode === 'setup' ? body.setup_intent_data : body.payment_intent_data) as Json | undefined) ?? {});
    return session;
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://fake');
    const body = req.method === 'GET' ? decodeForm(url.search.slice(1)) : decodeForm(raw);
    const account = typeof req.headers['stripe-account'] === 'string' ? req.headers['stripe-account'] : null;
    requests.push({ method: req.method ?? 'GET', path: url.pathname, headers: req.headers, body });
    // The hosted page is the payer's browser, not an API call: no key.
    if (url.pathname.startsWith('/checkout/') && (await checkoutPage(fake, fake, req, res, raw))) return;
    const reply = (status: number, json: Json) => {
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': newId('req') });
      res.end(JSON.stringify(json));
    };
    if (!/^Bearer sk_test_\w+/.test(String(req.headers.authorization ?? ''))) {
      return reply(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided.' } });
    }
    const key = req.method === 'POST' && typeof req.headers['idempotency-key'] === 'string' ? `${account}:${req.headers['idempotency-key']}` : null;
    const replay = key ? idempotent.get(key) : undefined;
    if (replay) return reply(replay.status, replay.body);
    try {
      const [status, json] = route(req.method ?? 'GET', url.pathname, account, body);
      if (key) idempotent.set(key, { status, body: json });
      reply(status, json);
    } catch (err) {
      if (!(err instanceof StripeFailure)) throw err;
      reply(err.status, { error: { type: err.type, message: err.message, code: err.code, param: err.param } });
    }
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'api_error', message: String(err) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  // The money helpers need the fake itself (its objects, emit): they are attached right below.
  const fake = {
    url: base,
    requests,
    accounts,
    objects,
    webhook: null,
    events,
    emit: (account, type, object) => deliverEvent(fake.webhook, events, account, type, object),
    redeliver(event) {
      if (!fake.webhook) throw new Error('fake Stripe: no webhook to deliver to (set fake.webhook)');
      return postEvent(fake.webhook, event);
    },
    own,
    use: (route) => void routes.push(route),
    addAccount(overrides = {}) {
      const ready = overrides.charges_enabled ?? true;
      const account: FakeAccount = {
        id: overrides.id ?? newId('acct'),
        charges_enabled: ready,
        details_submitted: overrides.details_submitted ?? ready,
        capabilities: overrides.capabilities ?? (ready ? { card_payments: 'active', sepa_debit_payments: 'active' } : { card_payments: 'inactive', sepa_debit_payments: 'inactive' }),
        requirements: overrides.requirements ?? { currently_due: ready ? [] : ['external_account', 'tos_acceptance.date'], past_due: [], eventually_due: [] },
      };
      accounts.set(account.id, account);
      return account;
    },
    reset() {
      requests.length = 0;
      events.length = 0;
    },
    close: () => new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve()))),
  } as FakeStripe;
  Object.assign(fake, fakePayments(fake));
  routes.push(paymentRoutes(fake));
  const refunds = fakeRefunds(fake);
  Object.assign(fake, refunds.helpers);
  routes.push(refunds.route);
  Object.assign(fake, fakeSepa(fake));
  routes.push(sepaRoutes(fake));
  return fake;
}

/** Points the app's provider at the fake (STRIPE_SECRET_KEY, STRIPE_API_BASE); returns the restore. */
export function useFakeStripe(fake: FakeStripe): () => void {
  const saved = { key: process.env.STRIPE_SECRET_KEY, base: process.env.STRIPE_API_BASE };
  process.env.STRIPE_SECRET_KEY = 'sk_test_paraphe';
  process.env.STRIPE_API_BASE = fake.url;
  return () => {
    for (const [name, value] of [['STRIPE_SECRET_KEY', saved.key], ['STRIPE_API_BASE', saved.base]] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
}

/** Runs `fn` with online payment switched off (no STRIPE_SECRET_KEY), then puts the key back. */
export async function withoutStripe<T>(fn: () => Promise<T>): Promise<T> {
  const key = process.env.STRIPE_SECRET_KEY;
  delete process.env.STRIPE_SECRET_KEY;
  try {
    return await fn();
  } finally {
    process.env.STRIPE_SECRET_KEY = key;
  }
}
