import { notFound } from 'next/navigation';
import { z } from 'zod';
import type { Db } from '@/db/client';
import { getContact } from '@/lib/contacts/contacts';
import { ApiError } from '@/lib/errors';

/** The org's contact for a page, or Next's 404 page (unknown id, malformed id, another org's contact alike). */
export async function loadContactOr404(staff: { db: Db; orgId: string }, id: string) {
  if (!z.uuid().safeParse(id).success) notFound();
  try {
    return await getContact(staff.db, staff.orgId, id);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) notFound();
    throw err;
  }
}
