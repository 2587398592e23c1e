import { getDb } from '@/db/client';
import { handleResendWebhook } from '@/lib/platform/email';
import { readBody } from '@/lib/platform/http';
import { ok, publicRoute } from '@/lib/platform/next';

/** Resend delivery events (signed with Svix): 200 once applied or already seen, 400 for a bad signature, 413 past 1 MiB. */
export const POST = publicRoute(async (req) => ok(await handleResendWebhook(await getDb(), await readBody(req), req.headers)));
