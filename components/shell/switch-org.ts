import { getCsrfToken } from 'next-auth/react';

/** A failure's `notice`: the French sentence the sidebar shows under the select (not an API error's message). */
export type SwitchOutcome = { ok: true } | { ok: false; notice: string };

const FAILED = 'Le changement d’organisation a échoué : réessayez dans un instant.';
const REFUSED = 'Vous n’êtes pas membre de cette organisation : l’organisation active n’a pas changé.';

/**
 * What next-auth's `useSession().update` does, without its provider: a POST of the wanted org to the session
 * endpoint, with the CSRF token it requires; the jwt callback (lib/platform/next/session.ts) grants it to a member
 * only and sets the new session cookie in the answer. Worked only when the answer is 2xx and the session it returns
 * names the wanted org (a non-member's request is answered 200 with the org unchanged); otherwise a French message.
 */
export async function switchOrg(orgId: string): Promise<SwitchOutcome> {
  try {
    const csrfToken = await getCsrfToken();
    const res = await fetch('/api/auth/session', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ csrfToken, data: { orgId } }),
    });
    if (!res.ok) return { ok: false, notice: FAILED };
    const session = (await res.json().catch(() => null)) as { orgId?: unknown } | null;
    return session?.orgId === orgId ? { ok: true } : { ok: false, notice: REFUSED };
  } catch {
    return { ok: false, notice: FAILED };
  }
}
