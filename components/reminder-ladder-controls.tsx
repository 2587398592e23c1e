'use client';

import { useActionState, useState, useTransition } from 'react';
import { addReminderAction, deleteReminderAction, type ReminderActionState } from './reminder-ladder-actions';
import { TONE_LABELS } from './reminder-labels';

/** Cancels a pending reminder (it stays in the ladder, cancelled). */
export function DeleteReminderButton({ documentId, reminderId }: { documentId: string; reminderId: string }) {
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      <button
        type="button"
        className="btn btn-sm btn-ghost"
        disabled={pending}
        onClick={() =>
          start(async () => {
            const result = await deleteReminderAction(documentId, reminderId);
            setError(result.error ?? null);
          })
        }
      >
        Supprimer
      </button>
      {error && (
        <span className="field-error" role="alert">
          {error}
        </span>
      )}
    </>
  );
}

/** A manual reminder: now (empty date) or at a Paris date and time, with an optional message and tone. */
export function AddReminderForm({ documentId, payment }: { documentId: string; payment: boolean }) {
  const [state, formAction, pending] = useActionState<ReminderActionState, FormData>(addReminderAction.bind(null, documentId), {});
  const error = (name: string) => state.errors?.[name];
  return (
    <form className="form" action={formAction} noValidate style={{ marginTop: 16 }}>
      <h3>Ajouter une relance</h3>
      {state.error && !Object.keys(state.errors ?? {}).length && (
        <p className="form-error" role="alert">
          {state.error}
        </p>
      )}
      {state.done && (
        <p className="notice notice-success" role="status">
          {state.done}
        </p>
      )}
      <div className="grid-2">
        <div className="field" data-invalid={Boolean(error('scheduled_at'))}>
          <label htmlFor={`reminder-at-${documentId}`}>Quand (heure de Paris)</label>
          <input id={`reminder-at-${documentId}`} name="scheduled_at" type="datetime-local" />
          <span className="hint">Vide : tout de suite (dans la minute).</span>
          {error('scheduled_at') && <span className="field-error">{error('scheduled_at')}</span>}
        </div>
        {payment && (
          <div className="field" data-invalid={Boolean(error('tone'))}>
            <label htmlFor={`reminder-tone-${documentId}`}>Ton</label>
            <select id={`reminder-tone-${documentId}`} name="tone" defaultValue="">
              <option value="">Selon l’échéance (courtois avant, ferme après)</option>
              {Object.entries(TONE_LABELS).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
            {error('tone') && <span className="field-error">{error('tone')}</span>}
          </div>
        )}
      </div>
      <div className="field" data-invalid={Boolean(error('message'))}>
        <label htmlFor={`reminder-message-${documentId}`}>Message (facultatif)</label>
        <textarea id={`reminder-message-${documentId}`} name="message" rows={3} placeholder="Cité tel quel dans l’e-mail." />
        {error('message') && <span className="field-error">{error('message')}</span>}
      </div>
      <div className="form-actions">
        <button type="submit" className="btn" disabled={pending}>
          {pending ? 'Enregistrement…' : 'Programmer la relance'}
        </button>
      </div>
    </form>
  );
}
