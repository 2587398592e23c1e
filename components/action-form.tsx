'use client';

import type { ReactNode } from 'react';
import { useActionState } from 'react';
import { FormErrors, SubmitButton } from './form';
import { type BoundFormAction, initialFormState } from '@/lib/platform/http/form-state';

/** A form of one button (and what the page puts before it): its action's confirmation or refusal is shown beside it. */
export function ActionForm({
  action,
  label,
  pendingLabel,
  className = 'btn',
  children,
}: {
  action: BoundFormAction;
  label: string;
  pendingLabel?: string;
  className?: string;
  children?: ReactNode;
}) {
  const [state, formAction] = useActionState(action, initialFormState);
  return (
    <form action={formAction} className="stack">
      {children}
      <div className="toolbar">
        <SubmitButton className={className} pendingLabel={pendingLabel}>
          {label}
        </SubmitButton>
        {state.done && (
          <span className="notice notice-success" role="status">
            {state.done}
          </span>
        )}
      </div>
      <FormErrors state={state} />
    </form>
  );
}
