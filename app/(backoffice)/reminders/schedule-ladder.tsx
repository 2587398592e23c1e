'use client';

import { useActionState } from 'react';
import { InlineOutcome, SubmitButton } from '@/components/ui';
import { type BoundFormAction, initialFormState } from '@/lib/platform/next/client';

/**
 * « Programmer les relances » on an overdue invoice that has no reminder: the org's ladder, armed as a send arms it.
 * Rendered on every row (the button only where nothing is scheduled), so that the confirmation stays on screen once
 * the page, refreshed, shows the row with its reminders.
 */
export function ScheduleLadder({ action, number, unscheduled }: { action: BoundFormAction; number: string; unscheduled: boolean }) {
  const [state, formAction] = useActionState(action, initialFormState);
  if (!unscheduled && !state.done && !state.error) return null;
  return (
    <form action={formAction} className="inline-form">
      {unscheduled && (
        <SubmitButton small pendingLabel="Programmation…" aria-label={`Programmer les relances de la facture ${number}`}>
          Programmer les relances
        </SubmitButton>
      )}
      <InlineOutcome state={state} />
    </form>
  );
}
