'use client';

import { useActionState, useEffect, useState } from 'react';
import { Button, SubmitButton } from '@/components/ui';
import { type BoundFormAction, initialFormState } from '@/lib/platform/next/client';
import type { BulkOutcome } from './bulk';
import { MAX_BULK } from './labels';

/** The form the rows' checkboxes belong to (their `form` attribute): the table stays outside it. */
export const BULK_FORM = 'bulk-documents';

const boxes = () => [...document.querySelectorAll<HTMLInputElement>(`input[type="checkbox"][name="ids"][form="${BULK_FORM}"]`)];

/**
 * The bulk actions above the documents list: Envoyer, Relancer, Supprimer post the checked ids to the server action
 * (it works without JavaScript); Exporter submits the same ids to the CSV export instead. The answer says what was
 * done and, document by document, what was left out and why.
 */
export function BulkBar({ action }: { action: BoundFormAction<BulkOutcome[]> }) {
  const [state, formAction] = useActionState(action, initialFormState);
  const [count, setCount] = useState<number | null>(null);
  useEffect(() => {
    const update = () => setCount(boxes().filter((b) => b.checked).length);
    update();
    document.addEventListener('change', update);
    return () => document.removeEventListener('change', update);
  }, []);
  const left = state.data?.filter((o) => !o.ok) ?? [];

  return (
    <form id={BULK_FORM} action={formAction} className="toolbar bulk-bar" aria-label="Actions sur la sélection">
      <input type="hidden" name="selection" value="1" />
      <span className="muted" aria-live="polite">
        {count === null ? 'Cochez des documents pour agir sur eux :' : `${count} sélectionné${count > 1 ? 's' : ''}`}
      </span>
      <SubmitButton variant="plain" small name="op" value="send">
        Envoyer
      </SubmitButton>
      <SubmitButton variant="plain" small name="op" value="remind">
        Relancer
      </SubmitButton>
      <Button small type="submit" formAction="/documents/export.csv" formMethod="get">
        Exporter
      </Button>
      <SubmitButton
        variant="danger" small
        name="op"
        value="delete"
       
        onClick={(e) => {
          if (!window.confirm('Supprimer les brouillons sélectionnés ? Les documents finalisés ne sont jamais supprimés.')) e.preventDefault();
        }}
      >
        Supprimer
      </SubmitButton>
      {state.done && (
        <div className="notice notice-success bulk-result" role="status">
          {state.done}
          {left.length > 0 && (
            <ul>
              {left.map((o) => (
                <li key={o.id}>
                  {o.name} : {o.reason}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      {(state.error || state.errors) && (
        <p className="form-error bulk-result" role="alert">
          {state.errors?.ids ? `Cochez au moins un document (au plus ${MAX_BULK}).` : (state.errors?.op ?? state.error)}
        </p>
      )}
    </form>
  );
}

/** "Tout sélectionner": checks or unchecks every row of the page (needs JavaScript; without it, rows are checked one by one). */
export function SelectAll() {
  const [all, setAll] = useState(false);
  useEffect(() => {
    const update = () => {
      const list = boxes();
      setAll(list.length > 0 && list.every((b) => b.checked));
    };
    document.addEventListener('change', update);
    return () => document.removeEventListener('change', update);
  }, []);
  return (
    <input
      type="checkbox"
      aria-label="Tout sélectionner"
      checked={all}
      onChange={(e) => {
        for (const b of boxes()) b.checked = e.target.checked;
        setAll(e.target.checked);
        document.dispatchEvent(new Event('change'));
      }}
    />
  );
}
