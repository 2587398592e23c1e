import { and, asc, eq } from 'drizzle-orm';
import * as one from '@/app/v1/contacts/[id]/route';
import * as erase from '@/app/v1/contacts/[id]/erase/route';
import * as exportRoute from '@/app/v1/contacts/[id]/export/route';
import * as merge from '@/app/v1/contacts/[id]/merge/route';
import * as mergePreview from '@/app/v1/contacts/[id]/merge-preview/route';
import * as restore from '@/app/v1/contacts/[id]/restore/route';
import * as duplicates from '@/app/v1/contacts/duplicates/route';
import * as importRoute from '@/app/v1/contacts/import/route';
import * as collection from '@/app/v1/contacts/route';
import { contactConsents, contacts, events } from '@/db/schema';
import type { TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';

/** The contacts route handlers, for tests. */
export const routes = {
  list: collection.GET,
  create: collection.POST,
  import: importRoute.POST,
  duplicates: duplicates.GET,
  get: one.GET,
  patch: one.PATCH,
  delete: one.DELETE,
  restore: restore.POST,
  mergePreview: mergePreview.POST,
  merge: merge.POST,
  erase: erase.POST,
  export: exportRoute.GET,
};

/** Creates a contact through the API and returns its public representation. */
export async function newContact(org: TestOrg, body: Record<string, unknown>) {
  const res = await call(routes.create, 'POST', '/v1/contacts', { token: await org.key(), body });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function rowOf(org: TestOrg, id: string) {
  const [row] = await org.db.select().from(contacts).where(and(eq(contacts.org_id, org.org.id), eq(contacts.id, id)));
  return row;
}

export const rowsOf = (org: TestOrg) => org.db.select().from(contacts).where(eq(contacts.org_id, org.org.id)).orderBy(asc(contacts.id));

export const eventsOf = async (org: TestOrg, type?: string) =>
  (await org.db.select().from(events).where(eq(events.org_id, org.org.id)).orderBy(asc(events.id))).filter(
    (e) => !type || e.type === type,
  );

export const consentsOf = (org: TestOrg, contactId: string) =>
  org.db.select().from(contactConsents).where(eq(contactConsents.contact_id, contactId)).orderBy(asc(contactConsents.changed_at), asc(contactConsents.id));
