import { notFound } from 'next/navigation';
import { z } from 'zod';
import type { Db } from '@/db/client';
import { getContact } from '@/lib/contacts';
import { ApiError } from '@/lib/errors';
import { getRecurringTemplate } from '@/lib/recurring';

/** The org's template for a page, or Next's 404 page (unknown, malformed or another org's id alike). */
export async function loadTemplateOr404(staff: { db: Db; orgId: string }, id: string) {
  if (!z.uuid().safeParse(id).success) notFound();
  try {
    return await getRecurringTemplate(staff.db, staff.orgId, id);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) notFound();
    throw err;
  }
}

/** The name a template's pages give its client: "Contact effacé" once erased, null when it is not the org's. */
export async function contactChoice(staff: { db: Db; orgId: string }, id: string): Promise<{ id: string; name: string } | null> {
  try {
    const c = await getContact(staff.db, staff.orgId, id);
    return { id: c.id, name: c.display_name ?? 'Contact effacé' };
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}
