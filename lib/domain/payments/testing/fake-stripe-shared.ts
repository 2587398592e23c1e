import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** What the fake Stripe's parts share: the JSON type, ids, Stripe's error shape, its form encoding. */

export type Json = Record<string, unknown>;

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

/** An API call as a route sees it: the connected account is the `Stripe-Account` header (null: the platform). */
export interface FakeCall {
  method: string;
  path: string;
  account: string | null;
  body: Json;
}

/** An extra API route (fake-stripe-*.ts): its answer, or undefined when the call is not its own. */
export type FakeRoute = (call: FakeCall) => [number, Json] | undefined;

/** A Stripe event as delivered to a webhook endpoint (a snapshot event of the pinned API version). */
export interface FakeEvent extends Json {
  id: string;
  type: string;
  account: string | null;
  created: number;
  data: { object: Json };
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

/** An account as Stripe's API shows it; `extra` adds or overrides fields (its type, metadata…). */
export const accountJson = (a: FakeAccount, extra: Json): Json => ({
  id: a.id,
  object: 'account',
  country: 'FR',
  default_currency: 'eur',
  charges_enabled: a.charges_enabled,
  payouts_enabled: a.charges_enabled,
  details_submitted: a.details_submitted,
  capabilities: a.capabilities,
  requirements: { ...a.requirements, disabled_reason: a.charges_enabled ? null : 'requirements.past_due', errors: [] },
  ...extra,
});

export const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
export const now = () => Math.floor(Date.now() / 1000);

export class StripeFailure extends Error {
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

export const missing = (what: string, id: string) => new StripeFailure(404, 'invalid_request_error', `No such ${what}: '${id}'`, 'resource_missing', 'id');
export const required = (param: string) => new StripeFailure(400, 'invalid_request_error', `Missing required param: ${param}.`, 'parameter_missing', param);

/** The `payment_intent_data` (setup mode: `setup_intent_data`) a session was created with (not part of the session object Stripe returns). */
export const sessionIntentData = new WeakMap<Json, Json>();
