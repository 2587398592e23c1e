'use client';

import { useActionState } from 'react';
import { CheckboxField, Field, FormErrors, Input, SubmitButton } from '@/components/ui';
import { type BoundFormAction, initialFormState } from '@/lib/platform/next/client';

type Texts = Record<string, string>;

/** The submit button, and the action's confirmation beside it. */
function Submit({ label, pendingLabel, done }: { label: string; pendingLabel: string; done?: string }) {
  return (
    <div className="form-actions">
      <SubmitButton pendingLabel={pendingLabel}>{label}</SubmitButton>
      {done && (
        <span className="notice notice-success" role="status">
          {done}
        </span>
      )}
    </div>
  );
}

/** The PA connection (pdp_config) and the e-invoicing switch. */
export function PlatformForm({ action, values, secretMask }: { action: BoundFormAction; values: Texts; secretMask: string | null }) {
  const [state, formAction] = useActionState(action, initialFormState);
  const texts = { ...values, ...(state.texts ?? {}) };
  const error = (name: string) => state.errors?.[`pdp_config.${name}`] ?? state.errors?.[name];
  return (
    <form className="form" action={formAction} key={state.attempt}>
      <FormErrors state={state} summary="Rien n’a été enregistré : corrigez les champs signalés." placed={['pdp_config.base_url', 'pdp_config.token_url', 'pdp_config.client_id', 'pdp_config.client_secret', 'pdp_config.provider']} />
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
      <Submit label="Enregistrer" pendingLabel="Enregistrement…" done={state.done} />
    </form>
  );
}

/** The directory enrollment: blank identifiers take the organisation’s legal identity. */
export function EnrollForm({ action, values, label }: { action: BoundFormAction; values: Texts; label: string }) {
  const [state, formAction] = useActionState(action, initialFormState);
  const texts = { ...values, ...(state.texts ?? {}) };
  return (
    <form className="form" action={formAction} key={state.attempt}>
      <FormErrors state={state} summary="L’inscription n’a pas été demandée." placed={['siren', 'siret', 'routing_code']} />
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
      <Submit label={label} pendingLabel="Demande en cours…" done={state.done} />
    </form>
  );
}
