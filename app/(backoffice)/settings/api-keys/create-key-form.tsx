'use client';

import { useActionState, useState } from 'react';
import { SCOPES } from '@/lib/auth/scopes';
import { type CreateKeyState, createKeyAction } from './actions';

const SCOPE_LABELS: Record<string, string> = {
  'contacts:read': 'Contacts — lecture',
  'contacts:write': 'Contacts — écriture',
  'invoice:read': 'Documents — lecture',
  'invoice:write': 'Documents — écriture',
  'signature:read': 'Signature — lecture',
  'signature:write': 'Signature — écriture',
  'webhooks:read': 'Webhooks — lecture',
  'webhooks:write': 'Webhooks — écriture',
  'events:read': 'Événements — lecture',
};

export function CreateKeyForm() {
  const [state, action, pending] = useActionState<CreateKeyState, FormData>(createKeyAction, {});
  const [copied, setCopied] = useState(false);

  return (
    <div className="stack">
      {state.key && (
        <div className="notice notice-success" data-testid="new-key">
          <strong>Clé « {state.name} » créée.</strong> Copiez-la maintenant : elle ne sera plus jamais affichée.
          <code className="secret" data-testid="new-key-value">
            {state.key}
          </code>
          <button
            type="button"
            className="btn btn-sm"
            onClick={async () => {
              await navigator.clipboard.writeText(state.key!);
              setCopied(true);
            }}
          >
            {copied ? 'Copiée ✓' : 'Copier'}
          </button>
        </div>
      )}
      <form className="form" action={action}>
        <div className="field" data-invalid={Boolean(state.errors?.name)}>
          <label htmlFor="key-name">Nom</label>
          <input id="key-name" name="name" type="text" placeholder="Intégration comptable" required maxLength={100} />
          {state.errors?.name && <span className="field-error">{state.errors.name}</span>}
        </div>
        <fieldset className="field">
          <legend>Droits</legend>
          <div className="checks">
            {SCOPES.map((scope) => (
              <label key={scope}>
                <input type="checkbox" name="scopes" value={scope} /> {SCOPE_LABELS[scope] ?? scope}
              </label>
            ))}
          </div>
          <span className="hint">Un droit d’écriture inclut la lecture du même module.</span>
          {state.errors?.scopes && <span className="field-error">{state.errors.scopes}</span>}
        </fieldset>
        <div className="field">
          <label htmlFor="key-env">Environnement</label>
          <select id="key-env" name="env" defaultValue="live">
            <option value="live">live</option>
            <option value="test">test</option>
          </select>
        </div>
        <div className="form-actions">
          <button className="btn btn-primary" type="submit" disabled={pending}>
            {pending ? 'Création…' : 'Créer la clé'}
          </button>
        </div>
      </form>
    </div>
  );
}
