'use client';

import { useActionState } from 'react';
import { type OrgFormState, saveOrgAction } from './actions';

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
  { name: 'share_capital', label: 'Capital social (€)', error: 'share_capital_cents' },
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
  const [state, action, pending] = useActionState<OrgFormState, FormData>(saveOrgAction, {});
  return (
    <form className="form" action={action}>
      {state.saved && <div className="notice notice-success">Identité enregistrée.</div>}
      {state.errors?._form && <p className="form-error">{state.errors._form}</p>}
      <div className="grid-2">
        {FIELDS.map((f) => {
          const error = state.errors?.[f.error ?? f.name];
          return (
            <div className="field" key={f.name} data-invalid={Boolean(error)}>
              <label htmlFor={`org-${f.name}`}>{f.label}</label>
              <input id={`org-${f.name}`} name={f.name} type={f.type ?? 'text'} defaultValue={String(values[f.name] ?? '')} required={f.name === 'name'} />
              {f.hint && <span className="hint">{f.hint}</span>}
              {error && <span className="field-error">{error}</span>}
            </div>
          );
        })}
      </div>
      <div className="field" data-invalid={Boolean(state.errors?.logo)}>
        <label htmlFor="org-logo">Logo (PNG ou JPEG, 512 Ko max.)</label>
        <input id="org-logo" name="logo" type="file" accept="image/png,image/jpeg" />
        {values.has_logo && (
          <label className="hint">
            <input type="checkbox" name="remove_logo" /> Retirer le logo actuel
          </label>
        )}
        {state.errors?.logo && <span className="field-error">{state.errors.logo}</span>}
      </div>
      <div className="form-actions">
        <button className="btn btn-primary" type="submit" disabled={pending}>
          {pending ? 'Enregistrement…' : 'Enregistrer'}
        </button>
      </div>
    </form>
  );
}
