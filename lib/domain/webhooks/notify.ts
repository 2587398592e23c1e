import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { memberships, users, type webhookEndpoints } from '@/db/schema';
import { appBaseUrl } from '@/lib/platform/config';
import { queueEmail } from '@/lib/platform/email';
import { log } from '@/lib/platform/log';

/** An endpoint failing this long is disabled (DESIGN §10). */
export const DISABLE_AFTER_FAILING_MS = 5 * 86_400_000;

/**
 * Tells the org's owners and admins that the service disabled an endpoint, in the transaction that disabled it. A
 * notice that cannot be written (no such user, a template error) is logged and never undoes the disabling.
 */
export async function notifyEndpointDisabled(tx: Db, endpoint: typeof webhookEndpoints.$inferSelect, lastFailure: string | null) {
  const admins = await tx
    .select({ email: users.email })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.user_id))
    .where(and(eq(memberships.org_id, endpoint.org_id), inArray(memberships.role, ['owner', 'admin'])));
  if (admins.length === 0 || !endpoint.failing_since) return;
  try {
    await tx.transaction((sp) =>
      queueEmail(sp, endpoint.org_id, {
        to: admins.slice(0, 50).map((a) => a.email),
        template: 'webhook_endpoint_disabled',
        language: 'fr',
        data: {
          endpoint_url: endpoint.url,
          failing_since: endpoint.failing_since!.toISOString(),
          last_failure: lastFailure?.slice(0, 300) ?? null,
          settings_url: `${appBaseUrl()}/docs/api`,
        },
      }),
    );
  } catch (error) {
    log.error({ module: 'webhooks', err: error }, 'the notice of a disabled endpoint could not be queued');
  }
}
