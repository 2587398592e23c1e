'use server';

import { revalidatePath } from 'next/cache';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { clientAddress } from '@/lib/platform/auth';
import { formAction } from '@/lib/platform/next';
import { type BulkPreview, bulkFromForm } from './handlers';

export type { BulkPreview } from './handlers';

/** The bulk page's form: a preview to show, or the send made and its results view opened. */
export const bulkAction = formAction(
  async (staff, form: FormData) => {
    const h = await headers();
    const actor = { ip: clientAddress(h), user_agent: h.get('user-agent')?.slice(0, 500) ?? null, user_id: staff.userId, api_key_id: null };
    const outcome = await bulkFromForm(staff, form, actor);
    if ('preview' in outcome) return { data: outcome.preview as BulkPreview };
    revalidatePath('/signature');
    revalidatePath('/signature/bulk');
    redirect(`/signature/bulk/${outcome.batch_id}`);
  },
  { input: (form: FormData) => form },
);
