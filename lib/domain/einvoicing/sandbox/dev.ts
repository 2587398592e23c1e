import type { Db } from '@/db/client';
import { configurePdpIfUnset } from '@/lib/domain/invoice-settings';

/** The credentials `npm run pa:sandbox` prints: the sandbox accepts any pair, each client_id is a tenant of its own. */
export const DEV_SANDBOX_CLIENT = { client_id: 'demo', client_secret: 'sandbox-secret-demo' } as const;

/**
 * PA_SANDBOX=true: points an org that has no PA configured at the local sandbox, so that a newcomer's demo org can
 * enroll, transmit and receive at once. An org that has a PA keeps it. Returns whether it connected the org.
 */
export async function connectToDevSandbox(db: Db, orgId: string, baseUrl: string): Promise<boolean> {
  return configurePdpIfUnset(db, orgId, { provider: 'afnor', base_url: baseUrl, token_url: null, ...DEV_SANDBOX_CLIENT });
}
