'use client';

import { startTransition, useActionState, useState } from 'react';
import { Button, FormErrors, SubmitButton } from '@/components/ui';
import { type BoundFormAction, initialFormState } from '@/lib/platform/next/client';

interface Row {
  key: string;
  signer_id: string;
  label: string;
  description: string;
  required: boolean;
}
let counter = 0;

/** The documents each signer must upload when signing (PUT …/requested-documents): the whole list is replaced. */
export function RequestedDocumentsEditor({
  action,
  signers,
  initial,
}: {
  action: BoundFormAction<never, unknown>;
  signers: Array<{ id: string; name: string }>;
  initial: Array<Omit<Row, 'key'>>;
}) {
  const [rows, setRows] = useState<Row[]>(initial.map((r) => ({ ...r, key: `r${++counter}` })));
  const [state, dispatch, pending] = useActionState(action, initialFormState);
  const set = (key: string, change: Partial<Row>) => setRows((list) => list.map((r) => (r.key === key ? { ...r, ...change } : r)));
  const error = (i: number, name: string) => state.errors?.[`requested_documents.${i}.${name}`];
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const body = { requested_documents: rows.map(({ key: _k, description, ...r }) => ({ ...r, description: description.trim() || null })) };
    startTransition(() => dispatch(body));
  };
  return (
    <form className="stack" onSubmit={submit} noValidate aria-label="Pièces demandées">
      <FormErrors state={state} placed={(k) => /^requested_documents\.\d+\.(label|description|signer_id)$/.test(k)} />
      {rows.length === 0 && <p className="muted">Aucune pièce demandée.</p>}
      {rows.map((r, i) => (
        <fieldset key={r.key} className="card" style={{ minWidth: 0 }}>
          <legend>Pièce {i + 1}</legend>
          <div className="grid-2">
            <div className="field">
              <label htmlFor={`${r.key}-label`}>Intitulé</label>
              <input id={`${r.key}-label`} value={r.label} aria-invalid={Boolean(error(i, 'label')) || undefined} onChange={(e) => set(r.key, { label: e.target.value })} />
              {error(i, 'label') && <span className="field-error">{error(i, 'label')}</span>}
            </div>
            <div className="field">
              <label htmlFor={`${r.key}-signer`}>Signataire</label>
              <select id={`${r.key}-signer`} value={r.signer_id} onChange={(e) => set(r.key, { signer_id: e.target.value })}>
                {signers.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.name}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <div className="field">
            <label htmlFor={`${r.key}-description`}>Précisions (facultatif)</label>
            <input id={`${r.key}-description`} value={r.description} onChange={(e) => set(r.key, { description: e.target.value })} />
            {error(i, 'description') && <span className="field-error">{error(i, 'description')}</span>}
          </div>
          <label>
            <input type="checkbox" checked={r.required} onChange={(e) => set(r.key, { required: e.target.checked })} /> Obligatoire
          </label>{' '}
          <Button variant="ghost" small onClick={() => setRows((list) => list.filter((x) => x.key !== r.key))}>
            Retirer la pièce {i + 1}
          </Button>
        </fieldset>
      ))}
      <div className="toolbar">
        <Button
          onClick={() => setRows((list) => [...list, { key: `r${++counter}`, signer_id: signers[0]?.id ?? '', label: '', description: '', required: true }])}
        >
          Demander une pièce
        </Button>
        <SubmitButton pending={pending} pendingLabel="Enregistrement…">
          Enregistrer les pièces demandées
        </SubmitButton>
        {state.done && (
          <span className="notice notice-success" role="status">
            {state.done}
          </span>
        )}
      </div>
    </form>
  );
}
