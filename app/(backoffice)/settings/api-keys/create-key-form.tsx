'use client';

import { useActionState, useState } from 'react';
import { Button, Field, FieldError, Input, Select, SubmitButton } from '@/components/ui';
import { SCOPES } from '@/lib/platform/auth/client';
import { initialFormState } from '@/lib/platform/next/client';
import { ENV_LABELS, scopeLabel } from '@/lib/platform/i18n';
import { createKeyAction } from './actions';

export function CreateKeyForm() {
  const [state, action] = useActionState(createKeyAction, initialFormState);
  const created = state.data;
  const [copied, setCopied] = useState(false);

  return (
    <div className="stack">
      {created && (
        <div className="notice notice-success" data-testid="new-key">
          <strong>Clé « {created.name} » créée.</strong> Copiez-la maintenant : elle ne sera plus jamais affichée.
          <code className="secret" data-testid="new-key-value">
            {created.key}
          </code>
          <Button
            small
            onClick={async () => {
              await navigator.clipboard.writeText(created.key);
              setCopied(true);
            }}
          >
            {copied ? 'Copiée ✓' : 'Copier'}
          </Button>
        </div>
      )}
      <form className="form" action={action}>
        <Field id="key-name" label="Nom" error={state.errors?.name}>
          <Input name="name" placeholder="Intégration comptable" required maxLength={100} />
        </Field>
        <fieldset className="field">
          <legend>Droits</legend>
          <div className="checks">
            {SCOPES.map((scope) => (
              <label key={scope}>
                <input type="checkbox" name="scopes" value={scope} /> {scopeLabel(scope)}
              </label>
            ))}
          </div>
          <span className="hint">Un droit d’écriture inclut la lecture du même module.</span>
          <FieldError message={state.errors?.scopes} />
        </fieldset>
        <Field id="key-env" label="Environnement" error={state.errors?.env}>
          <Select name="env" defaultValue="live">
            {Object.entries(ENV_LABELS).map(([env, label]) => (
              <option key={env} value={env}>
                {label}
              </option>
            ))}
          </Select>
        </Field>
        <div className="form-actions">
          <SubmitButton pendingLabel="Création…">Créer la clé</SubmitButton>
        </div>
      </form>
    </div>
  );
}
