'use server';

import { revalidatePath } from 'next/cache';
import { formAction } from '@/lib/platform/next';
import { bulkDocuments, readBulkForm } from './bulk';

/** The documents list's bulk form (Envoyer, Relancer, Supprimer on the checked rows); the list and the dashboard refresh. */
export const bulkDocumentsAction = formAction(
  async (staff, input: ReturnType<typeof readBulkForm>) => {
    const reply = await bulkDocuments(staff, input);
    revalidatePath('/documents');
    revalidatePath('/reminders');
    revalidatePath('/');
    return reply;
  },
  { input: readBulkForm },
);
