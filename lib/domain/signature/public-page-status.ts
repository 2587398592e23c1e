import { eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { signatureDeletedForms } from '@/db/schema';
import { ApiError } from '@/lib/platform/errors';
import { loadPublicForm } from './form-submissions';
import { openSession } from './signer-session';

/** The HTTP status a public signature page answers with: live (200), unknown (404) or no longer working (410). */
export type PublicPageStatus = 200 | 404 | 410;

/** `/sign/<token>`: what `/api/sign/<token>` would answer, without acting on the link (no `signer.opened`). */
export async function signerPageStatus(db: Db, token: string): Promise<PublicPageStatus> {
  try {
    await openSession(db, token);
    return 200;
  } catch (err) {
    if (err instanceof ApiError && (err.status === 404 || err.status === 410)) return err.status;
    throw err;
  }
}

/** `/sign/forms/<slug>`: a form (active or closed) 200, a deleted one 410 (its slug is remembered), else 404. */
export async function formPageStatus(db: Db, slug: string): Promise<PublicPageStatus> {
  if (await loadPublicForm(db, slug)) return 200;
  const [deleted] = await db.select({ slug: signatureDeletedForms.slug }).from(signatureDeletedForms).where(eq(signatureDeletedForms.slug, slug));
  return deleted ? 410 : 404;
}
