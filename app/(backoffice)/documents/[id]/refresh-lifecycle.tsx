'use client';

import { useActionState } from 'react';
import { type BoundFormAction, initialFormState } from '@/lib/platform/next/client';
import { InlineOutcome, SubmitButton } from '@/components/ui';

/** « Actualiser »: the PA asked for the invoice's statuses now, the outcome said beside the button. */
export function RefreshLifecycle({ action }: { action: BoundFormAction }) {
  const [state, formAction] = useActionState(action, initialFormState);
  return (
    <form action={formAction} className="toolbar" aria-label="Actualiser les statuts">
      <SubmitButton small variant="plain" pendingLabel="Actualisation…">
        Actualiser
      </SubmitButton>
      <InlineOutcome state={state} />
    </form>
  );
}
