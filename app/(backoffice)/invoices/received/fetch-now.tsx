'use client';

import { useActionState } from 'react';
import { FormErrors, SubmitButton } from '@/components/ui';
import { type FormState, initialFormState } from '@/lib/platform/next/client';

/** Fetches the org's received flows now, and says how many came. */
export function FetchNow({ action }: { action: (prev: FormState, form: FormData) => Promise<FormState> }) {
  const [state, formAction] = useActionState(action, initialFormState);
  return (
    <form action={formAction} key={state.attempt}>
      <SubmitButton variant="plain" pendingLabel="Relevé en cours…">
        Relever maintenant
      </SubmitButton>
      <FormErrors state={state} />
      {state.done && (
        <p className="notice notice-success" role="status">
          {state.done}
        </p>
      )}
    </form>
  );
}
