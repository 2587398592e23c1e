'use client';

import { useActionState } from 'react';
import { InlineOutcome, SubmitButton } from '@/components/ui';
import { type BoundFormAction, initialFormState } from '@/lib/platform/next/client';

/** "Relancer maintenant": a reminder sent within the minute, its tone chosen by the ladder (as POST …/reminders with no date). */
export function RemindNow({ action, number }: { action: BoundFormAction; number: string }) {
  const [state, formAction] = useActionState(action, initialFormState);
  return (
    <form action={formAction} className="inline-form">
      <SubmitButton variant="plain" small pendingLabel="Envoi…" aria-label={`Relancer maintenant la facture ${number}`}>
        Relancer maintenant
      </SubmitButton>
      <InlineOutcome state={state} />
    </form>
  );
}
