'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { MergeBody, type MergeBody as MergeBodyType, mergeContacts, previewMerge } from '@/lib/domain/contacts';
import { idOf, staffAction } from '@/lib/platform/next';

// The body is checked by the API's schema: its refusals read like the API's (`source_ids.1: listed twice`).
const bodyOf = (body: unknown) => MergeBody.parse(body) as MergeBodyType;

export const previewMergeAction = staffAction(
  async ({ db, orgId }, targetId: string, body: unknown) => previewMerge(db, orgId, idOf(targetId), bodyOf(body)),
  { notFound: 'Contact introuvable.' },
);

/** Merges, then opens the merged contact (which says how many were merged into it). */
export const mergeAction = staffAction(
  async ({ db, orgId }, targetId: string, body: unknown) => {
    const id = idOf(targetId);
    const done = await mergeContacts(db, orgId, id, bodyOf(body));
    revalidatePath('/contacts', 'layout');
    redirect(`/contacts/${id}?merged=${done.sources.length}`);
  },
  { notFound: 'Contact introuvable.' },
);
