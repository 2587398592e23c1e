import { createHash } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type { Db } from '@/db/client';
import { appBaseUrl } from '@/lib/platform/config';
import { queueEmail } from '@/lib/platform/email';
import { ApiError } from '@/lib/platform/errors';
import { findUserByEmail, listUserOrgs } from '@/lib/platform/orgs';
import { clientAddress, throttleErrorCode, type ThrottleRefusal } from '@/lib/platform/auth';
import { log } from '@/lib/platform/log';

/** The longest a sign-in check may hold the one slot of a throttled account (a check takes well under a second). */
const SLOT_HOLD_SECONDS = 30;

/**
 * Throttling of the two ways to guess a credential: staff sign-in (per account and per client address) and API keys
 * (invalid keys per client address). Counted with rate-limiter-flexible's Postgres store in the `rate_limits` table
 * that the per-key quota uses (lib/platform/http/rate-limit.ts), under other key prefixes, so that every app instance shares
 * them. The policy and its reasons: docs/security.md, "Sign-in and API keys".
 */

// ─── Policy ─────────────────────────────────────────────────────────────────

export interface ThrottlePolicy {
  /** From this many failures on, each further attempt waits after a failure: 1 s, 2 s, 4 s… */
  delayAfter: number;
  /** … capped at this many seconds. */
  maxDelaySeconds: number;
  /** This many failures lock (the account) or block (the address) for `lockSeconds`. */
  lockAfter: number;
  lockSeconds: number;
  /** Failures are counted over a window that opens at the first one; a success closes it (accounts). */
  windowSeconds: number;
}

export interface SignInPolicy {
  account: ThrottlePolicy;
  address: ThrottlePolicy;
}

export interface ApiKeyPolicy {
  /** Invalid keys from one address within a minute before it gets 429 instead of 401… */
  failuresPerMinute: number;
  /** … for this long. */
  blockSeconds: number;
}

function setting(name: string, fallback: number, min = 0): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer ≥ ${min}, not "${raw}".`);
  return value;
}

/** Read at every sign-in, so that an operator's (or a test's) environment applies without a restart of this module. */
export function signInPolicy(): SignInPolicy {
  const windowSeconds = setting('SIGNIN_WINDOW_SECONDS', 15 * 60, 1);
  const lockSeconds = setting('SIGNIN_LOCK_SECONDS', 15 * 60, 1);
  return {
    account: {
      delayAfter: setting('SIGNIN_DELAY_AFTER', 5, 1),
      maxDelaySeconds: setting('SIGNIN_MAX_DELAY_SECONDS', 60, 1),
      lockAfter: setting('SIGNIN_LOCK_AFTER', 10, 1),
      lockSeconds,
      windowSeconds,
    },
    address: {
      delayAfter: setting('SIGNIN_ADDRESS_DELAY_AFTER', 10, 1),
      maxDelaySeconds: setting('SIGNIN_ADDRESS_MAX_DELAY_SECONDS', 4, 1),
      lockAfter: setting('SIGNIN_ADDRESS_BLOCK_AFTER', 50, 1),
      lockSeconds,
      windowSeconds,
    },
  };
}

export function apiKeyPolicy(): ApiKeyPolicy {
  return {
    failuresPerMinute: setting('API_KEY_FAILURES_PER_MINUTE', 20, 1),
    blockSeconds: setting('API_KEY_FAILURE_BLOCK_SECONDS', 5 * 60, 1),
  };
}

// ─── The store ──────────────────────────────────────────────────────────────

/** A `$1`-style statement as a Drizzle query, so that it runs on the handle given: the pool or a transaction. */
function asQuery(text: string, values: readonly unknown[] = []): SQL {
  const query = sql.empty();
  text.split(/\$(\d+)/).forEach((part, i) => {
    query.append(i % 2 === 0 ? sql.raw(part) : sql`${values[Number(part) - 1] ?? null}`);
  });
  return query;
}

type StoreResult = { rows: Record<string, unknown>[]; rowCount?: number | null; affectedRows?: number };

/**
 * rate-limiter-flexible's Postgres store over one of our handles (both engines). It reads `rowCount` to tell "no row"
 * from a row, which PGlite does not set: the rows themselves say it for a SELECT.
 */
function storeOn(db: Db) {
  return {
    async query(q: { text: string; values?: unknown[] }) {
      const result = (await db.execute(asQuery(q.text, q.values))) as unknown as StoreResult;
      return { rows: result.rows, rowCount: result.rows.length || (result.rowCount ?? result.affectedRows ?? 0) };
    },
  };
}

function limiter(db: Db, keyPrefix: string, points: number, duration: number, extra: Partial<ConstructorParameters<typeof RateLimiterPostgres>[0]> = {}) {
  return new RateLimiterPostgres({
    storeClient: storeOn(db),
    storeType: 'client',
    tableName: 'rate_limits',
    tableCreated: true,
    // One limiter per process sweeps the table (sweepExpiredRows); these are built per call.
    clearExpiredByTimeout: false,
    keyPrefix,
    points,
    duration,
    ...extra,
  });
}

let sweeping = false;
/**
 * The limiter's own cleanup (every 5 minutes, the rows expired for an hour, whatever their prefix), started once per
 * process from here too: a process that never serves an API key would otherwise never run it.
 */
function sweepExpiredRows(db: Db) {
  if (sweeping) return;
  sweeping = true;
  limiter(db, 'sweep', 1, 1, { clearExpiredByTimeout: true });
}

// ─── One throttle: a counter, a wait and a lock per key ─────────────────────

/** A refused attempt: the code next-auth carries to the login page (`AccountLocked:900`) and the seconds to wait. */
export class SignInThrottled extends Error {
  constructor(
    readonly kind: ThrottleRefusal,
    readonly retryAfterSeconds: number,
  ) {
    super(throttleErrorCode(kind, retryAfterSeconds));
    this.name = 'SignInThrottled';
  }
}

interface Ticket {
  key: string;
  /** This attempt's number among the failures (and attempts in flight) of the window. */
  n: number;
  /** It holds the wait slot: no other attempt of the key is let in until it ends. */
  slot: boolean;
}

/**
 * Three rows per key. `<prefix>` counts attempts in the window: each one is counted when let in, before its password
 * is checked, so that a burst of parallel guesses cannot all pass between a failure and its count; a refused one is
 * given back, a success closes the window (accounts) or is given back (addresses). `<prefix>_wait` is the wait after a
 * failure, and is also taken, atomically, by the attempt let in once the wait is over, so that parallel attempts past
 * `delayAfter` go one at a time. `<prefix>_lock` is the lock.
 */
class Throttle {
  constructor(
    private readonly prefix: string,
    private readonly policy: ThrottlePolicy,
    private readonly lockedAs: ThrottleRefusal,
  ) {}

  private counter(db: Db) {
    return limiter(db, this.prefix, this.policy.lockAfter, this.policy.windowSeconds);
  }
  private wait(db: Db) {
    return limiter(db, `${this.prefix}_wait`, 1, 1);
  }
  private lock(db: Db) {
    return limiter(db, `${this.prefix}_lock`, 1, this.policy.lockSeconds);
  }

  /** 1 s after the `delayAfter`-th failure, then twice as long after each further one, up to the cap. */
  delaySeconds(failures: number): number {
    return Math.min(this.policy.maxDelaySeconds, 2 ** Math.max(0, failures - this.policy.delayAfter));
  }

  async admit(db: Db, key: string): Promise<Ticket> {
    const n = (await this.counter(db).penalty(key)).consumedPoints;
    let slot = false;
    let refusal: SignInThrottled | null = null;
    if (n > this.policy.lockAfter) {
      // Parallel attempts past the lock threshold while the one that reached it is being checked.
      refusal = new SignInThrottled('TooManyAttempts', 1);
    } else if (n > this.policy.delayAfter) {
      try {
        // The slot is held for the whole attempt — failed() replaces it with the delay, success and cancel free it —
        // and not only for the delay (1 s at first): a check slower than that would let the next guess in beside it.
        // SLOT_HOLD_SECONDS frees it should the process die mid-check.
        await this.wait(db).consume(key, 1, { customDuration: Math.max(this.delaySeconds(n - 1), SLOT_HOLD_SECONDS) });
        slot = true;
      } catch (err) {
        if (!(err instanceof RateLimiterRes)) throw err;
        refusal = new SignInThrottled('TooManyAttempts', err.msBeforeNext / 1000);
      }
    }
    // The lock is read last. lockIn sets it and opens a new window (counter and slot cleared) in one transaction: an
    // attempt that read "unlocked" first could then be counted in the new window, or take the freed slot, and a burst
    // in flight when the lock fell would get in again (seen on PostgreSQL under load). Read after them, it is seen.
    const locked = await this.lock(db).get(key);
    if (locked) refusal = new SignInThrottled(this.lockedAs, locked.msBeforeNext / 1000);
    const ticket = { key, n, slot };
    if (refusal) {
      await this.cancel(db, ticket);
      throw refusal;
    }
    return ticket;
  }

  /** The attempt was refused elsewhere, or failed for a reason other than its credentials: it does not count. */
  async cancel(db: Db, ticket: Ticket) {
    await this.counter(db).reward(ticket.key);
    if (ticket.slot) await this.wait(db).delete(ticket.key);
  }

  async succeeded(db: Db, ticket: Ticket, { reset }: { reset: boolean }) {
    if (reset) {
      await Promise.all([this.counter(db).delete(ticket.key), this.wait(db).delete(ticket.key)]);
      return;
    }
    await this.cancel(db, ticket);
  }

  /** Counts the failure: 'lock' when it is the one that reaches the threshold (then call lockIn, once). */
  async failed(db: Db, ticket: Ticket): Promise<'lock' | 'wait' | 'counted'> {
    if (ticket.n >= this.policy.lockAfter) return 'lock';
    if (ticket.n >= this.policy.delayAfter) {
      await this.wait(db).set(ticket.key, 1, this.delaySeconds(ticket.n));
      return 'wait';
    }
    return 'counted';
  }

  /** Locks the key and opens a new window for after the lock; on the caller's transaction. */
  async lockIn(tx: Db, key: string) {
    await this.lock(tx).block(key, this.policy.lockSeconds);
    await this.counter(tx).delete(key);
    await this.wait(tx).delete(key);
  }
}

const accountKey = (email: string) => createHash('sha256').update(email.trim().toLowerCase()).digest('base64url');

const throttles = (policy: SignInPolicy) => ({
  account: new Throttle('signin_account', policy.account, 'AccountLocked'),
  address: new Throttle('signin_address', policy.address, 'AddressBlocked'),
});

// ─── Sign-in ────────────────────────────────────────────────────────────────

export interface SignInAttempt {
  email: string;
  /** clientAddress() of the request. */
  address: string;
}

/**
 * Runs `verify` (the password check) under the sign-in throttles, or throws SignInThrottled without running it. Per
 * account (the lower-cased e-mail, whether or not an account has it, so that a refusal tells nothing of its
 * existence): progressive waits after `delayAfter` failures, a lock after `lockAfter` in the window, during which even
 * the right password is refused, and one e-mail to the account's owner per lock; a success clears the account's
 * failures. Per address: the same with its own thresholds (a block), and a success does not clear its failures.
 */
export async function throttledSignIn<U>(db: Db, attempt: SignInAttempt, verify: () => Promise<U | null>, policy = signInPolicy()): Promise<U | null> {
  sweepExpiredRows(db);
  const { account, address } = throttles(policy);
  const key = accountKey(attempt.email);
  const byAddress = await address.admit(db, attempt.address);
  let byAccount: Ticket;
  try {
    byAccount = await account.admit(db, key);
  } catch (err) {
    await address.cancel(db, byAddress);
    throw err;
  }

  let user: U | null;
  try {
    user = await verify();
  } catch (err) {
    await Promise.all([account.cancel(db, byAccount), address.cancel(db, byAddress)]);
    throw err;
  }
  if (user) {
    await Promise.all([account.succeeded(db, byAccount, { reset: true }), address.succeeded(db, byAddress, { reset: false })]);
    return user;
  }

  const [accountOutcome, addressOutcome] = await Promise.all([account.failed(db, byAccount), address.failed(db, byAddress)]);
  if (addressOutcome === 'lock') await db.transaction((tx) => address.lockIn(tx, byAddress.key));
  if (accountOutcome === 'lock') await lockAccount(db, account, byAccount, attempt, policy.account);
  return null;
}

/** The lock and the e-mail to the account's owner are written together: one e-mail per lock, and none without it. */
async function lockAccount(db: Db, account: Throttle, ticket: Ticket, attempt: SignInAttempt, policy: ThrottlePolicy) {
  const until = new Date(Date.now() + policy.lockSeconds * 1000);
  try {
    await db.transaction(async (tx) => {
      await account.lockIn(tx, ticket.key);
      await queueLockNotice(tx, attempt, ticket.n, until);
    });
  } catch (err) {
    // The lock never depends on the notice.
    log.error(err, 'sign-in throttle: the lock notice could not be written; locking without it');
    await db.transaction((tx) => account.lockIn(tx, ticket.key));
  }
}

async function queueLockNotice(tx: Db, attempt: SignInAttempt, failures: number, until: Date) {
  const user = await findUserByEmail(tx, attempt.email);
  if (!user) return;
  // An e-mail belongs to an org (emails.org_id): the user's default one, as at sign-in. A user of no org gets none.
  const [org] = await listUserOrgs(tx, user.id);
  if (!org) return;
  await queueEmail(tx, org.id, {
    to: [user.email],
    template: 'account_locked',
    language: 'fr',
    data: {
      account_email: user.email,
      failures,
      locked_until: until.toISOString(),
      address: attempt.address === 'unknown' ? null : attempt.address,
      login_url: `${appBaseUrl()}/login`,
    },
  });
}

// ─── API keys ───────────────────────────────────────────────────────────────

/**
 * The answer to a request whose API key is missing, malformed, unknown, wrong or revoked: 401, counted against the
 * client's address; past `failuresPerMinute` in a minute the address gets 429 `rate_limited` with Retry-After for
 * `blockSeconds` instead. Only invalid keys are counted and refused: a valid key from the same address keeps working.
 */
export async function invalidApiKey(db: Db, req: Request, policy = apiKeyPolicy()): Promise<ApiError> {
  sweepExpiredRows(db);
  const rl = limiter(db, 'apikey_invalid', policy.failuresPerMinute, 60, { blockDuration: policy.blockSeconds });
  try {
    await rl.consume(clientAddress(req.headers));
  } catch (err) {
    if (!(err instanceof RateLimiterRes)) throw err;
    const seconds = Math.max(1, Math.ceil(err.msBeforeNext / 1000));
    return new ApiError(429, 'rate_limited', `Too many invalid API keys from this address: retry in ${seconds} s.`, null, { 'Retry-After': String(seconds) });
  }
  return new ApiError(401, 'unauthorized', 'Missing or invalid API key.');
}
