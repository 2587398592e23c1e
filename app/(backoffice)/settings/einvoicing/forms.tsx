'use client';

import { useActionState, useRef, useState, useTransition } from 'react';
import { Button, CheckboxField, Field, FormActions, InlineOutcome, Input, SubmitButton } from '@/components/ui';
import { type BoundFormAction, type FormState, initialFormState, isRefusal, type Refusal, refusalMessage } from '@/lib/platform/next/client';
import type { ConnectionView } from './handlers';

type Texts = Record<string, string>;

/** The form's button, its outcome beside it (FormActions: the refusal there, focus on the first field in error). */
function Submit({ label, pendingLabel, state, refused, placed }: { label: string; pendingLabel: string; state: FormState<unknown>; refused: string; placed: string[] }) {
  return (
    <FormActions state={state} refused={refused} placed={placed}>
      <SubmitButton pendingLabel={pendingLabel}>{label}</SubmitButton>
    </FormActions>
  );
}

type TestAction = (fields: Record<string, string>) => Promise<ConnectionView | Refusal>;

const MARKS = { ok: '✓', failed: '✗', skipped: '–' } as const;

/** What « Tester la connexion » found: the verdict beside the button, then each step. */
function ConnectionChecks({ view }: { view: ConnectionView }) {
  return (
    <ul className="plain-list" data-testid="connection-checks" aria-label="Étapes du test de connexion">
      {view.checks.map((c) => (
        <li key={c.step} data-outcome={c.outcome} className={c.outcome === 'failed' ? 'form-error' : c.outcome === 'skipped' ? 'muted' : undefined}>
          <span aria-hidden="true">{MARKS[c.outcome]}</span> {c.label} : {c.text}
        </li>
      ))}
    </ul>
  );
}

/**
 * The PA connection (pdp_config) and the e-invoicing switch, with « Tester la connexion »: what is typed is tried on
 * the PA before it is saved (a blank secret: the stored one), by a call rather than a submission, so the fields stay.
 */
export function PlatformForm({ action, test, values, secretMask }: { action: BoundFormAction; test: TestAction; values: Texts; secretMask: string | null }) {
  const [state, formAction] = useActionState(action, initialFormState);
  const form = useRef<HTMLFormElement>(null);
  const [tested, setTested] = useState<ConnectionView | Refusal | null>(null);
  const [testing, startTest] = useTransition();
  const runTest = () =>
    startTest(async () => {
      const fields = Object.fromEntries([...new FormData(form.current!).entries()].map(([k, v]) => [k, String(v)]));
      setTested(await test(fields));
    });
  const texts = { ...values, ...(state.texts ?? {}) };
  const testErrors = tested && isRefusal(tested) ? tested.errors : undefined;
  const error = (name: string) => state.errors?.[`pdp_config.${name}`] ?? state.errors?.[name] ?? testErrors?.[`pdp_config.${name}`];
  const outcome = !tested ? {} : isRefusal(tested) ? { error: refusalMessage(tested) || 'Le test n’a pas pu être lancé.' } : tested.ok ? { done: tested.summary } : { error: tested.summary };
  return (
    <form ref={form} className="form" action={formAction} key={state.attempt}>
      <Field id="pa-base-url" label="Adresse de l’API de la plateforme" hint="Interface AFNOR XP Z12-013 : https://… vers une adresse publique (http et adresses locales seulement si l’exploitant les autorise, pour la plateforme de test)." error={error('base_url')}>
        <Input name="base_url" type="url" inputMode="url" placeholder="https://api.ma-plateforme.fr" maxLength={500} defaultValue={texts.base_url} />
      </Field>
      <Field id="pa-token-url" label="Adresse du jeton OAuth (facultatif)" hint="Par défaut : l’adresse de l’API suivie de /oauth/token." error={error('token_url')}>
        <Input name="token_url" type="url" inputMode="url" maxLength={500} defaultValue={texts.token_url} />
      </Field>
      <div className="grid-2">
        <Field id="pa-client-id" label="Identifiant client" error={error('client_id')}>
          <Input name="client_id" autoComplete="off" maxLength={200} defaultValue={texts.client_id} />
        </Field>
        <Field
          id="pa-client-secret"
          label="Secret client"
          hint={secretMask ? `Enregistré (${secretMask}), chiffré : laissez vide pour le garder.` : 'Chiffré avant d’être enregistré ; il ne sera plus affiché.'}
          error={error('client_secret')}
        >
          <Input name="client_secret" type="password" autoComplete="new-password" maxLength={1000} />
        </Field>
      </div>
      <CheckboxField
        id="pa-enabled"
        name="einvoicing_enabled"
        label="Transmettre les factures aux clients professionnels français par la plateforme"
        defaultChecked={texts.einvoicing_enabled === 'on'}
      />
      <Submit
        label="Enregistrer"
        pendingLabel="Enregistrement…"
        state={state}
        refused="Rien n’a été enregistré : corrigez les champs signalés."
        placed={['pdp_config.base_url', 'pdp_config.token_url', 'pdp_config.client_id', 'pdp_config.client_secret', 'pdp_config.provider']}
      />
      <div className="stack">
        <div className="toolbar">
          <Button onClick={runTest} disabled={testing}>
            {testing ? 'Test en cours…' : 'Tester la connexion'}
          </Button>
          <InlineOutcome state={outcome} />
        </div>
        {tested && !isRefusal(tested) && <ConnectionChecks view={tested} />}
      </div>
    </form>
  );
}

/** The directory enrollment: blank identifiers take the organisation’s legal identity. */
export function EnrollForm({ action, values, label }: { action: BoundFormAction; values: Texts; label: string }) {
  const [state, formAction] = useActionState(action, initialFormState);
  const texts = { ...values, ...(state.texts ?? {}) };
  return (
    <form className="form" action={formAction} key={state.attempt}>
      <div className="grid-2">
        <Field id="enroll-siren" label="SIREN" hint="Vide : celui de l’organisation." error={state.errors?.siren}>
          <Input name="siren" inputMode="numeric" maxLength={9} defaultValue={texts.siren} />
        </Field>
        <Field id="enroll-siret" label="SIRET" hint="Vide : celui de l’organisation." error={state.errors?.siret}>
          <Input name="siret" inputMode="numeric" maxLength={14} defaultValue={texts.siret} />
        </Field>
      </div>
      <Field id="enroll-routing" label="Code de routage (facultatif)" hint="Pour recevoir les factures d’un service à une adresse distincte." error={state.errors?.routing_code}>
        <Input name="routing_code" maxLength={100} defaultValue={texts.routing_code} />
      </Field>
      <Submit label={label} pendingLabel="Demande en cours…" state={state} refused="L’inscription n’a pas été demandée : corrigez les champs signalés." placed={['siren', 'siret', 'routing_code']} />
    </form>
  );
}
