'use server';

import { revalidatePath } from 'next/cache';
import { buttonAction, formAction } from '@/lib/platform/next';
import { ADMIN_ONLY, create, IdInput, RedeliverInput, readCreateForm, redeliverOne, remove, rotate, SETTINGS_PATH, sendTest, ToggleInput, toggle } from './handlers';

const revalidated =
  <A extends unknown[], R>(run: (...args: A) => Promise<R>) =>
  async (...args: A): Promise<R> => {
    const result = await run(...args);
    revalidatePath(SETTINGS_PATH, 'layout');
    return result;
  };

export const createEndpointAction = formAction(revalidated(create), { input: readCreateForm, adminOnly: ADMIN_ONLY });
export const rotateSecretAction = formAction(revalidated(rotate), { adminOnly: ADMIN_ONLY });
export const sendTestAction = formAction(revalidated(sendTest), { adminOnly: ADMIN_ONLY });
export const redeliverAction = formAction(revalidated(redeliverOne), {
  input: (form: FormData) => RedeliverInput.parse({ id: form.get('id'), delivery_id: form.get('delivery_id') }),
  adminOnly: ADMIN_ONLY,
});
export const toggleEndpointAction = buttonAction(revalidated(toggle), { input: (form) => ToggleInput.parse({ id: form.get('id'), enabled: form.get('enabled') }), adminOnly: ADMIN_ONLY });
export const deleteEndpointAction = buttonAction(revalidated(remove), { input: (form) => IdInput.parse({ id: form.get('id') }), adminOnly: ADMIN_ONLY });
