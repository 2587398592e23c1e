'use client';

import type { ReactNode } from 'react';
import { useActionState } from 'react';
import { type BoundFormAction, initialFormState } from '@/lib/platform/next/client';
import type { ButtonVariant } from './button';
import { FormErrors, SubmitButton } from './form';

/** A form of one button (and what the page puts before it): its action's confirmation or refusal is shown beside it. */
export function ActionForm({
  action,
  label,
  pendingLabel,
  variant = 'plain',
  small,
  children,
}: {
  action: BoundFormAction;
  label: string;
  pendingLabel?: string;
  variant?: ButtonVariant;
  small?: boolean;
  children?: ReactNode;
}) {
  const [state, formAction] = useActionState(action, initialFormState);
  return (
    <form action={formAction} className="stack">
      {children}
      <div className="toolbar">
        <SubmitButton variant={variant} small={small} pendingLabel={pendingLabel}>
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
