'use client';

import { useActionState, useState, useTransition } from 'react';
import { type BoundFormAction, initialFormState, isRefusal } from '@/lib/platform/next/client';
import { Button, Field, FormErrors, Input, Select, SubmitButton, TextArea } from '@/components/ui';
import { deleteReminderAction } from './reminder-ladder-actions';
import { TONE_LABELS } from './reminder-labels';

/** Cancels a pending reminder (it stays in the ladder, cancelled). */
export function DeleteReminderButton({ documentId, reminderId }: { documentId: string; reminderId: string }) {
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      <Button
        variant="danger" small
        disabled={pending}
        onClick={() =>
          start(async () => {
            const result = await deleteReminderAction(documentId, reminderId);
            setError(isRefusal(result) ? (result.error ?? null) : null);
          })
        }
      >
        Supprimer
      </Button>
      {error && (
        <span className="field-error" role="alert">
          {error}
        </span>
      )}
    </>
  );
}

/** A manual reminder: now (empty date) or at a Paris date and time, with an optional message and tone. */
export function AddReminderForm({ documentId, action, payment }: { documentId: string; action: BoundFormAction; payment: boolean }) {
  const [state, formAction] = useActionState(action, initialFormState);
  const error = (name: string) => state.errors?.[name];
  return (
    <form className="form" action={formAction} noValidate style={{ marginTop: 16 }}>
      <h3>Ajouter une relance</h3>
      <FormErrors state={state} placed={['scheduled_at', 'tone', 'message']} />
      {state.done && (
        <p className="notice notice-success" role="status">
          {state.done}
        </p>
      )}
      <div className="grid-2">
        <Field id={`reminder-at-${documentId}`} label="Quand (heure de Paris)" hint="Vide : tout de suite (dans la minute)." error={error('scheduled_at')}>
          <Input name="scheduled_at" type="datetime-local" />
        </Field>
        {payment && (
          <Field id={`reminder-tone-${documentId}`} label="Ton" error={error('tone')}>
            <Select name="tone" defaultValue="">
              <option value="">Selon l’échéance (courtois avant, ferme après)</option>
              {Object.entries(TONE_LABELS).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </Select>
          </Field>
        )}
      </div>
      <Field id={`reminder-message-${documentId}`} label="Message (facultatif)" error={error('message')}>
        <TextArea name="message" rows={3} placeholder="Cité tel quel dans l’e-mail." />
      </Field>
      <div className="form-actions">
        <SubmitButton variant="plain" pendingLabel="Enregistrement…">
          Programmer la relance
        </SubmitButton>
      </div>
    </form>
  );
}
