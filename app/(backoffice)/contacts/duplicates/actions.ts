'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { type MergeResult, mergeContacts, previewMerge } from '@/lib/contacts/merge';
import { type MergeBody as MergeBodyType, MergeBody } from '@/lib/contacts/schemas';
import { ApiError, fromZodError } from '@/lib/errors';
import { requireStaffOrg } from '@/lib/http/staff';

export type MergePreviewResult = { result: MergeResult } | { error: string };

/** The body checked by the API's schema; its refusals read like the API's (`source_ids.1: listed twice`). */
function parse(targetId: unknown, body: unknown): { targetId: string; body: MergeBodyType } | { error: string } {
  const target = z.uuid().safeParse(targetId);
  if (!target.success) return { error: 'Contact introuvable.' };
  const parsed = MergeBody.safeParse(body);
  if (!parsed.success) return { error: fromZodError(parsed.error).message };
  return { targetId: target.data, body: parsed.data as MergeBodyType };
}

async function attempt<T>(run: () => Promise<T>): Promise<T | { error: string }> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof ApiError) return { error: err.field && !err.message.startsWith(err.field) ? `${err.field}: ${err.message}` : err.message };
    throw err;
  }
}

export async function previewMergeAction(targetId: string, body: unknown): Promise<MergePreviewResult> {
  const staff = await requireStaffOrg();
  const input = parse(targetId, body);
  if ('error' in input) return input;
  return attempt(async () => ({ result: await previewMerge(staff.db, staff.orgId, input.targetId, input.body) }));
}

/** Merges, then opens the merged contact (which says how many were merged into it). */
export async function mergeAction(targetId: string, body: unknown): Promise<{ error: string }> {
  const staff = await requireStaffOrg();
  const input = parse(targetId, body);
  if ('error' in input) return input;
  const done = await attempt(() => mergeContacts(staff.db, staff.orgId, input.targetId, input.body));
  if ('error' in done) return done;
  revalidatePath('/contacts', 'layout');
  redirect(`/contacts/${input.targetId}?merged=${done.sources.length}`);
}
