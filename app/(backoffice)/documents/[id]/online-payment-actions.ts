'use server';

import { revalidatePath } from 'next/cache';
import { formAction } from '@/lib/platform/next';
import { paymentLink, sendForPaymentHandler, sendForPaymentInput } from './online-payment-handlers';

export const paymentLinkAction = formAction(
  async (staff, form: FormData, documentId: string) => {
    const reply = await paymentLink(staff, form, documentId);
    revalidatePath(`/documents/${documentId}`);
    return reply;
  },
  { notFound: 'Document introuvable.' },
);

export const sendForPaymentAction = formAction(
  async (staff, input: { email: string | null }, documentId: string) => {
    const reply = await sendForPaymentHandler(staff, input, documentId);
    revalidatePath(`/documents/${documentId}`);
    revalidatePath('/documents');
    revalidatePath('/reminders');
    return reply;
  },
  { input: sendForPaymentInput, notFound: 'Document introuvable.' },
);
