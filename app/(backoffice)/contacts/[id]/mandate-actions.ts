'use server';

import { revalidatePath } from 'next/cache';
import { formAction } from '@/lib/platform/next';
import { revoke } from './mandate-handlers';

export const revokeMandateAction = formAction(
  async (staff, form: FormData, contactId: string) => {
    const reply = await revoke(staff, form, contactId);
    revalidatePath(`/contacts/${contactId}`);
    return reply;
  },
  { notFound: 'Client introuvable.' },
);
