'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { CreateApiKeyInput, createApiKey, revokeApiKey } from '@/lib/platform/auth';
import { buttonAction, formAction } from '@/lib/platform/next';

/** The new key is shown once: the state carries it to the page, never stored in clear. */
export const createKeyAction = formAction(
  async ({ db, orgId, userId }, input) => {
    const { key, apiKey } = await createApiKey(db, orgId, input, userId);
    revalidatePath('/settings/api-keys');
    return { data: { key, name: apiKey.name } };
  },
  { input: (form: FormData) => CreateApiKeyInput.parse({ name: form.get('name'), scopes: form.getAll('scopes'), env: form.get('env') ?? 'live' }) },
);

/** Scoped to the active org: another org's key id is simply not found. */
export const revokeKeyAction = buttonAction(
  async ({ db, orgId }, { id }) => {
    await revokeApiKey(db, orgId, id);
    revalidatePath('/settings/api-keys');
  },
  { input: z.object({ id: z.uuid() }) },
);
