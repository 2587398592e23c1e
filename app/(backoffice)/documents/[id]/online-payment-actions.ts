'use server';

import { revalidatePath } from 'next/cache';
import { formAction } from '@/lib/platform/next';
import { paymentLink } from './online-payment-handlers';

export const paymentLinkAction = formAction(
  async (staff, form: FormData, documentId: string) => {
    const reply = await paymentLink(staff, form, documentId);
    revalidatePath(`/documents/${documentId}`);
    return reply;
  },
  { notFound: 'Document introuvable.' },
);
