import { notFound } from 'next/navigation';
import { z } from 'zod';
import type { Db } from '@/db/client';
import { getContact } from '@/lib/domain/contacts';
import { ApiError } from '@/lib/platform/errors';

export type Staff = { db: Db; orgId: string };

/** The org's resource for a page, or Next's 404 page (unknown id, malformed id, another org's alike). */
export async function loadOr404<T>(id: string, load: (id: string) => Promise<T>): Promise<T> {
  if (!z.uuid().safeParse(id).success) notFound();
  try {
    return await load(id);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) notFound();
    throw err;
  }
}

/** A contact's name for a filter or a page: "Contact effacé" once erased, null when it is not the org's. */
export async function contactChoice(staff: Staff, id: string): Promise<{ id: string; name: string } | null> {
  try {
    const c = await getContact(staff.db, staff.orgId, id);
    return { id: c.id, name: c.display_name ?? 'Contact effacé' };
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}
