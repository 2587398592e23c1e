import { getDb } from '@/db/client';
import { handleResendWebhook } from '@/lib/email/webhook';
import { ok, publicRoute } from '@/lib/http/handler';

/** Resend delivery events (signed with Svix): 200 once applied or already seen, 400 for a bad signature. */
export const POST = publicRoute(async (req) => ok(await handleResendWebhook(await getDb(), await req.text(), req.headers)));
