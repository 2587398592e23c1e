'use client';

import { useActionState, useState } from 'react';
import { CompanyRegistryFill } from '@/components/company-registry/company-registry-fill';
import { CheckboxField, Field, FormActions, Input, MoneyInput, SubmitButton } from '@/components/ui';
import { initialFormState } from '@/lib/platform/next/client';
import { suggestsAlsaceMoselle } from '@/lib/platform/orgs/client';
import { saveOrgAction } from './actions';

export interface OrgFormValues {
  name: string;
  legal_name: string | null;
  legal_form: string | null;
  share_capital: string;
  siren: string | null;
  siret: string | null;
  vat_number: string | null;
  rcs: string | null;
  address: string | null;
  postal_code: string | null;
  city: string | null;
  country: string;
  email: string | null;
  phone: string | null;
  has_logo: boolean;
  alsace_moselle: boolean;
}

const FIELDS: Array<{ name: keyof OrgFormValues; label: string; hint?: string; error?: string; type?: string }> = [
  { name: 'name', label: 'Nom usuel' },
  { name: 'legal_name', label: 'Dénomination sociale' },
  { name: 'legal_form', label: 'Forme juridique', hint: 'SAS, SARL, EURL, EI…' },
  { name: 'share_capital', label: 'Capital social (€)', error: 'share_capital_cents', type: 'money' },
  { name: 'siren', label: 'SIREN', hint: '9 chiffres' },
  { name: 'siret', label: 'SIRET du siège', hint: '14 chiffres' },
  { name: 'vat_number', label: 'N° TVA intracommunautaire' },
  { name: 'rcs', label: 'Immatriculation RCS', hint: 'RCS Paris 732 829 320' },
  { name: 'address', label: 'Adresse' },
  { name: 'postal_code', label: 'Code postal' },
  { name: 'city', label: 'Ville' },
  { name: 'country', label: 'Pays (ISO)', hint: 'FR' },
  { name: 'email', label: 'E-mail de contact', type: 'email' },
  { name: 'phone', label: 'Téléphone' },
];

/** `registry`: "Remplir depuis le SIREN" is offered (COMPANY_REGISTRY_URL set). */
export function OrgForm({ values, registry = false }: { values: OrgFormValues; registry?: boolean }) {
  const [state, action] = useActionState(saveOrgAction, initialFormState);
  // After a refusal the form shows again what was typed (the action's texts); it remounts at each attempt, so that
  // FormActions focuses the first field in error every time.
  const texts: Record<string, string> | undefined = state.texts;
  // The postal code as typed: one in Moselle or Alsace suggests the local calendar (a hint, never ticked for staff).
  const [postalCode, setPostalCode] = useState(values.postal_code ?? '');
  const [alsaceMoselle, setAlsaceMoselle] = useState(values.alsace_moselle);
  const onChange = (e: React.FormEvent<HTMLFormElement>) => {
    const target = e.target as HTMLInputElement;
    if (target.name === 'postal_code') setPostalCode(target.value);
  };
  return (
    <form className="form" action={action} onChange={onChange} key={state.attempt} noValidate>
      {registry && (
        <CompanyRegistryFill
          from={['siren', 'siret']}
          fill={{
            legal_name: 'legal_name',
            legal_form: 'legal_form',
            siren: 'siren',
            siret: 'siret',
            vat_number: 'vat_number',
            address: 'address',
            postal_code: 'postal_code',
            city: 'city',
          }}
        />
      )}
      <div className="grid-2">
        {FIELDS.map((f) => {
          const common = { name: f.name, defaultValue: texts?.[f.name] ?? String(values[f.name] ?? ''), required: f.name === 'name' };
          return (
            <Field key={f.name} id={`org-${f.name}`} label={f.label} hint={f.hint} error={state.errors?.[f.error ?? f.name]}>
              {f.type === 'money' ? <MoneyInput {...common} /> : <Input {...common} type={f.type ?? 'text'} />}
            </Field>
          );
        })}
      </div>
      <Field id="org-logo" label="Logo (PNG ou JPEG, 512 Ko max.)" error={state.errors?.logo}>
        <Input name="logo" type="file" accept="image/png,image/jpeg" />
        {values.has_logo && (
          <label className="hint">
            <input type="checkbox" name="remove_logo" /> Retirer le logo actuel
          </label>
        )}
      </Field>
      <CheckboxField
        id="org-alsace_moselle"
        name="alsace_moselle"
        label="Établissement en Alsace-Moselle (Vendredi saint et 26 décembre fériés)"
        checked={alsaceMoselle}
        onChange={(e) => setAlsaceMoselle(e.target.checked)}
        hint={
          !alsaceMoselle && suggestsAlsaceMoselle(postalCode)
            ? 'Votre code postal est en Moselle ou en Alsace : cochez si vous y travaillez, les relances éviteront ces deux jours.'
            : 'Les relances automatiques ne partent ni le dimanche ni un jour férié ; cochée, ces deux jours en plus.'
        }
      />
      <FormActions state={state} refused="L’identité n’a pas été enregistrée : corrigez les champs signalés." placed={(key) => key !== '_form'}>
        <SubmitButton pendingLabel="Enregistrement…">Enregistrer</SubmitButton>
      </FormActions>
    </form>
  );
}
