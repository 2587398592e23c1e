'use server';

import { revalidatePath } from 'next/cache';
import { formAction, type StaffContext, staffAction } from '@/lib/platform/next';
import { ADMIN_ONLY, enroll, SETTINGS_PATH, savePlatform, testPlatform } from './handlers';

const revalidated =
  <R>(run: (staff: StaffContext, form: FormData) => Promise<R>) =>
  async (staff: StaffContext, form: FormData): Promise<R> => {
    const result = await run(staff, form);
    revalidatePath(SETTINGS_PATH);
    return result;
  };

export const savePlatformAction = formAction(revalidated(savePlatform), { adminOnly: ADMIN_ONLY });
export const enrollAction = formAction(revalidated(enroll), { adminOnly: ADMIN_ONLY });

/** « Tester la connexion »: called by the form's button with what is typed (no form submission: the fields stay as typed). */
export const testPlatformAction = staffAction(testPlatform, { adminOnly: ADMIN_ONLY });
