'use server';

import { revalidatePath } from 'next/cache';
import { formAction, type StaffContext } from '@/lib/platform/next';
import { SETTINGS_PATH } from '@/lib/domain/payments';
import { CONNECT_ONLY, connect, disconnect, refresh } from './handlers';

const revalidating =
  <T>(handler: (staff: StaffContext) => Promise<T>) =>
  async (staff: StaffContext) => {
    const reply = await handler(staff);
    revalidatePath(SETTINGS_PATH);
    return reply;
  };

export const connectAction = formAction(connect, { adminOnly: CONNECT_ONLY });

export const refreshAction = formAction(revalidating(refresh));

// An owner only: disconnect() refuses anyone else.
export const disconnectAction = formAction(revalidating(disconnect));
