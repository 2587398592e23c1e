'use client';

import { useActionState, useState } from 'react';
import { Button, Field, FieldError, FormActions, InlineOutcome, Input, SubmitButton } from '@/components/ui';
import { type BoundFormAction, initialFormState } from '@/lib/platform/next/client';
import { EVENT_GROUP_LABELS, eventLabel } from '@/lib/platform/i18n';

type Secret = { url: string; secret: string };

/** The secret, shown once with a copy button. */
function SecretOnce({ created, title }: { created: Secret; title: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="notice notice-success" data-testid="webhook-secret">
      <strong>{title}</strong> Copiez ce secret de signature maintenant : il ne sera plus jamais affiché.
      <code className="secret" data-testid="webhook-secret-value">
        {created.secret}
      </code>
      <Button
        small
        onClick={async () => {
          await navigator.clipboard.writeText(created.secret);
          setCopied(true);
        }}
      >
        {copied ? 'Copié ✓' : 'Copier'}
      </Button>
    </div>
  );
}

/** « Nouveau webhook »: the URL and the events, grouped by module (tokens from the catalogue, passed by the page). */
export function CreateEndpointForm({ action, groups }: { action: BoundFormAction<Secret>; groups: Array<[owner: string, tokens: string[]]> }) {
  const [state, formAction] = useActionState(action, initialFormState as never);
  const texts = state.texts ?? {};
  return (
    <div className="stack">
      <form className="form" action={formAction} key={state.attempt}>
        <Field id="webhook-url" label="URL de réception" hint="Adresse https publique à laquelle Paraphe envoie les événements." error={state.errors?.url}>
          <Input name="url" type="url" inputMode="url" placeholder="https://exemple.fr/webhooks/paraphe" required maxLength={2048} defaultValue={texts.url} />
        </Field>
        {/* A fieldset is as wide as its content by default (min-width: min-content): on a phone it must shrink. */}
        <fieldset className="field" style={{ minWidth: 0 }}>
          <legend>Événements</legend>
          <label>
            <input type="checkbox" name="all" defaultChecked={texts.all === 'on'} /> {eventLabel('*')} (y compris ceux ajoutés plus tard)
          </label>
          {groups.map(([owner, tokens]) => (
            <fieldset className="field" key={owner} style={{ minWidth: 0 }}>
              <legend className="hint">{EVENT_GROUP_LABELS[owner] ?? owner}</legend>
              <div className="checks">
                {tokens.map((token) => (
                  <label key={token} title={token}>
                    <input type="checkbox" name="events" value={token} /> {eventLabel(token)}
                  </label>
                ))}
              </div>
            </fieldset>
          ))}
          <FieldError message={state.errors?.events} />
        </fieldset>
        <FormActions state={state} refused="Le webhook n’a pas été créé : corrigez les champs signalés." placed={['url', 'events']}>
          <SubmitButton pendingLabel="Création…">Créer le webhook</SubmitButton>
        </FormActions>
      </form>
      {/* Under the button that created it, where the person is looking: the secret is shown only this once. */}
      {state.data && <SecretOnce created={state.data} title="Webhook créé." />}
    </div>
  );
}

/** « Nouveau secret »: the new one shown once; the previous one still signs for 24 h. */
export function RotateSecretForm({ action }: { action: BoundFormAction<Secret> }) {
  const [state, formAction] = useActionState(action, initialFormState as never);
  return (
    <form action={formAction} className="stack">
      <div>
        <SubmitButton variant="plain" small pendingLabel="…">
          Nouveau secret
        </SubmitButton>
        <InlineOutcome state={state} />
      </div>
      {state.data && <SecretOnce created={state.data} title="Nouveau secret créé ; l’ancien signe encore les envois pendant 24 h." />}
    </form>
  );
}

/** A one-button form whose answer is a line (« Événement de test envoyé… », « Renvoi programmé. ») or a refusal. */
export function ButtonForm({ action, label, hidden = {} }: { action: BoundFormAction; label: string; hidden?: Record<string, string> }) {
  const [state, formAction] = useActionState(action, initialFormState);
  return (
    <form action={formAction}>
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <SubmitButton variant="plain" small pendingLabel="…">
        {label}
      </SubmitButton>
      <InlineOutcome state={state} />
    </form>
  );
}
