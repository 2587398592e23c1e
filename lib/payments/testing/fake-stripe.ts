import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stateful stand-in for the Stripe API, on a random local port, for the real SDK pointed at it through
 * STRIPE_API_BASE. It serves what Paraphe calls: accounts (GET), account links, customers, checkout sessions
 * (payment and setup mode, create and retrieve), each object kept per connected account (`Stripe-Account`), with
 * Stripe's error shape and idempotency keys. Accounts are created by the test (`addAccount`), as onboarding would.
 */

type Json = Record<string, unknown>;

export interface FakeAccount {
  id: string;
  charges_enabled: boolean;
  details_submitted: boolean;
  capabilities: { card_payments?: string; sepa_debit_payments?: string };
  requirements: { currently_due: string[]; past_due: string[]; eventually_due: string[] };
}

export interface FakeRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: Json;
}

export interface FakeStripe {
  url: string;
  requests: FakeRequest[];
  accounts: Map<string, FakeAccount>;
  /** Objects created on a connected account, by id (customers, checkout sessions). */
  objects: Map<string, { account: string | null; object: Json }>;
  addAccount(overrides?: Partial<Omit<FakeAccount, 'capabilities' | 'requirements'>> & Partial<Pick<FakeAccount, 'capabilities' | 'requirements'>>): FakeAccount;
  reset(): void;
  close(): Promise<void>;
}

/** Decodes Stripe's form encoding (`a[b][0][c]=x`) into nested objects and arrays. */
export function decodeForm(body: string): Json {
  const root: Json = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const parts = key.split(/\[|\]\[|\]/).filter((p, i) => p !== '' || i === 0);
    let node: Record<string, unknown> | unknown[] = root;
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      const slot = Array.isArray(node) ? Number(part) : part;
      const bag = node as Record<string | number, unknown>;
      if (last) {
        bag[slot] = value;
      } else {
        bag[slot] ??= /^\d+$/.test(parts[i + 1]!) ? [] : {};
        node = bag[slot] as Record<string, unknown> | unknown[];
      }
    });
  }
  return root;
}

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
const now = () => Math.floor(Date.now() / 1000);

class StripeFailure extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly code?: string,
    readonly param?: string,
  ) {
    super(message);
  }
}

const missing = (what: string, id: string) => new StripeFailure(404, 'invalid_request_error', `No such ${what}: '${id}'`, 'resource_missing', 'id');
const required = (param: string) => new StripeFailure(400, 'invalid_request_error', `Missing required param: ${param}.`, 'parameter_missing', param);

export async function startFakeStripe(): Promise<FakeStripe> {
  const requests: FakeRequest[] = [];
  const accounts = new Map<string, FakeAccount>();
  const objects = new Map<string, { account: string | null; object: Json }>();
  const idempotent = new Map<string, { status: number; body: Json }>();
  let base = '';

  const own = (id: string, account: string | null, what: string) => {
    const found = objects.get(id);
    if (!found || found.account !== account) throw missing(what, id);
    return found.object;
  };

  function accountJson(a: FakeAccount): Json {
    return {
      id: a.id,
      object: 'account',
      type: 'standard',
      country: 'FR',
      default_currency: 'eur',
      charges_enabled: a.charges_enabled,
      payouts_enabled: a.charges_enabled,
      details_submitted: a.details_submitted,
      capabilities: a.capabilities,
      requirements: { ...a.requirements, disabled_reason: a.charges_enabled ? null : 'requirements.past_due', errors: [] },
      metadata: {},
    };
  }

  function route(method: string, path: string, account: string | null, body: Json): [number, Json] {
    const idIn = (pattern: RegExp) => pattern.exec(path)?.[1];
    const accountId = method === 'GET' ? idIn(/^\/v1\/accounts\/([^/]+)$/) : undefined;
    if (accountId) {
      const a = accounts.get(accountId);
      if (!a) throw new StripeFailure(403, 'invalid_request_error', `The provided key does not have access to account '${accountId}' (or that account does not exist).`, 'account_invalid');
      return [200, accountJson(a)];
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
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    requests,
    accounts,
    objects,
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
    },
    close: () => new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve()))),
  };
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
