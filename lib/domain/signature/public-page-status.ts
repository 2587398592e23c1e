import { eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { signatureDeletedForms } from '@/db/schema';
import { loadPublicForm } from './form-submissions';
import { outcomeIsSigned, type SignerOutcome, signerLinkView } from './signer-outcome';

/** The HTTP status a public signature page answers with: live (200), unknown (404) or no longer working (410). */
export type PublicPageStatus = 200 | 404 | 410;

/**
 * `/sign/<token>`, without acting on the link (no `signer.opened`): a live link 200 (the signing page); a signer who
 * signed 200 too (their done page, with the signed PDF when there is one: issue 35); a link that no longer works
 * 410 as the API says, with why (`outcome`: cancelled, declined, expired, replaced); unknown 404.
 */
export async function signerPageStatus(db: Db, token: string): Promise<{ status: PublicPageStatus; outcome?: SignerOutcome }> {
  const link = await signerLinkView(db, token);
  if (link.view === 'unknown') return { status: 404 };
  if (link.view === 'live') return { status: 200 };
  return { status: outcomeIsSigned(link.outcome) ? 200 : 410, outcome: link.outcome };
}

/** `/sign/forms/<slug>`: a form (active or closed) 200, a deleted one 410 (its slug is remembered), else 404. */
export async function formPageStatus(db: Db, slug: string): Promise<PublicPageStatus> {
  if (await loadPublicForm(db, slug)) return 200;
  const [deleted] = await db.select({ slug: signatureDeletedForms.slug }).from(signatureDeletedForms).where(eq(signatureDeletedForms.slug, slug));
  return deleted ? 410 : 404;
}
