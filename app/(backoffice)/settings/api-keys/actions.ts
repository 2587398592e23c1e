'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { CreateApiKeyInput, createApiKey, revokeApiKey } from '@/lib/auth/api-keys';
import { fieldErrors } from '@/lib/errors';
import { requireStaffOrg } from '@/lib/http/staff';

export type CreateKeyState = { key?: string; name?: string; errors?: Record<string, string> };

export async function createKeyAction(_prev: CreateKeyState, form: FormData): Promise<CreateKeyState> {
  const staff = await requireStaffOrg();
  const parsed = CreateApiKeyInput.safeParse({ name: form.get('name'), scopes: form.getAll('scopes'), env: form.get('env') ?? 'live' });
  if (!parsed.success) return { errors: fieldErrors(parsed.error) };
  const { key, apiKey } = await createApiKey(staff.db, staff.orgId, parsed.data, staff.userId);
  revalidatePath('/settings/api-keys');
  return { key, name: apiKey.name };
}

export async function revokeKeyAction(form: FormData): Promise<void> {
  const staff = await requireStaffOrg();
  // Scoped to the active org: another org's key id is simply not found.
  await revokeApiKey(staff.db, staff.orgId, z.uuid().parse(form.get('id')));
  revalidatePath('/settings/api-keys');
}
