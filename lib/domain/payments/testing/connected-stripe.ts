import { afterAll, beforeAll } from 'vitest';
import { useTempStorage } from '@/lib/domain/reminders/testing';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { connectAccount } from '../connect-account';
import { type FakeStripe, startFakeStripe, useFakeStripe } from './fake-stripe';
import { useStripeWebhook } from './webhook-bridge';

/** Set in beforeAll: read in hooks and tests, never at a test file's top level. */
export interface ConnectedStripe {
  fake: FakeStripe;
  org: TestOrg;
  /** The fake account connected to `org` (undefined with `connect: false`). */
  account: string;
}

/**
 * The payments tests' common ground, as beforeAll/afterAll hooks of the calling file: with `storage` PDFs rendered to
 * a temporary directory; the fake Stripe started and pointed at (STRIPE_SECRET_KEY, STRIPE_API_BASE), with `webhook`
 * its events POSTed to the real webhook route; a test org and, unless `connect` is false, a fake account connected
 * to it. All undone after the file, last set up first undone. Not named use…: it registers hooks, it is no React hook.
 */
export function connectedStripe(options: { storage?: boolean; webhook?: boolean; orgName?: string; connect?: boolean } = {}): ConnectedStripe {
  const ctx = {} as ConnectedStripe;
  const undo: Array<() => unknown> = [];
  beforeAll(async () => {
    // biome-ignore lint/correctness/useHookAtTopLevel: a test setup that returns its cleanup, no React hook
    if (options.storage) undo.push(await useTempStorage());
    const fake = await startFakeStripe();
    ctx.fake = fake;
    undo.push(() => fake.close(), useFakeStripe(fake));
    // biome-ignore lint/correctness/useHookAtTopLevel: a test setup that returns its cleanup, no React hook
    if (options.webhook) undo.push(await useStripeWebhook(fake));
    ctx.org = await createTestOrg(options.orgName);
    if (options.connect === false) return;
    ctx.account = fake.addAccount().id;
    await connectAccount(ctx.org.db, ctx.org.org.id, ctx.account);
  });
  afterAll(async () => {
    for (const fn of undo.reverse()) await fn();
  });
  return ctx;
}
