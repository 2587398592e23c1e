'use client';

import { useActionState } from 'react';
import { Field, FormErrors, Input, Select, SubmitButton } from '@/components/ui';
import { initialFormState } from '@/lib/platform/next/client';
import { inviteAction } from './actions';

/** The invitation of a comptable (read-only) or a member, by e-mail. */
export function InviteForm() {
  const [state, action] = useActionState(inviteAction, initialFormState);
  return (
    <form className="form" action={action} key={state.attempt}>
      {state.done && (
        <div className="notice notice-success" role="status">
          {state.done}
        </div>
      )}
      <FormErrors state={state} placed={['email', 'role']} />
      <div className="grid-2">
        <Field id="invite-email" label="E-mail" error={state.errors?.email}>
          <Input name="email" type="email" required autoComplete="off" defaultValue={state.texts?.email} />
        </Field>
        <Field id="invite-role" label="Rôle" hint="Le comptable consulte les documents et télécharge les exports ; il ne modifie rien." error={state.errors?.role}>
          <Select name="role" defaultValue={state.texts?.role ?? 'accountant'}>
            <option value="accountant">Comptable (lecture seule)</option>
            <option value="member">Membre</option>
            <option value="admin">Administrateur</option>
          </Select>
        </Field>
      </div>
      <div className="form-actions">
        <SubmitButton pendingLabel="Envoi…">Inviter</SubmitButton>
      </div>
    </form>
  );
}
