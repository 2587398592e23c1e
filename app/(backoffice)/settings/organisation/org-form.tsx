'use client';

import { useActionState } from 'react';
import { Field, FormErrors, Input, MoneyInput, SubmitButton } from '@/components/form';
import { initialFormState } from '@/lib/http/form-state';
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

export function OrgForm({ values }: { values: OrgFormValues }) {
  const [state, action] = useActionState(saveOrgAction, initialFormState);
  return (
    <form className="form" action={action}>
      {state.done && <div className="notice notice-success">{state.done}</div>}
      <FormErrors state={state} placed={(key) => key !== '_form'} />
      <div className="grid-2">
        {FIELDS.map((f) => {
          const common = { name: f.name, defaultValue: String(values[f.name] ?? ''), required: f.name === 'name' };
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
      <div className="form-actions">
        <SubmitButton pendingLabel="Enregistrement…">Enregistrer</SubmitButton>
      </div>
    </form>
  );
}
