import { getDb } from '@/db/client';
import { readBody } from '@/lib/platform/http';
import { ok, publicRoute } from '@/lib/platform/next';
import { handleStripeWebhook } from '@/lib/domain/payments';

/** The Connect endpoint's provider events: 200 once handled or already seen, 400 for a bad signature, 503 when not configured. */
export const POST = publicRoute(async (req) => ok(await handleStripeWebhook(await getDb(), await readBody(req), req.headers.get('stripe-signature'))));
