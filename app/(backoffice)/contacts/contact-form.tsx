'use client';

import { useActionState } from 'react';
import { CompanyRegistryFill } from '@/components/company-registry/company-registry-fill';
import { CheckboxField, Field, FormActions, Input, LinkButton, Select, SubmitButton, TextArea } from '@/components/ui';
import { type ContactField, LEAD_STATUSES } from '@/lib/domain/contacts/client';
import { type FormState, initialFormState } from '@/lib/platform/next/client';
import { FIELD_LABELS, LANGUAGE_LABELS, LEAD_STATUS_LABELS, TYPE_LABELS } from './labels';

type Texts = Partial<Record<ContactField, string>>;

interface Props {
  action: (prev: FormState, form: FormData) => Promise<FormState>;
  initial: Texts;
  submitLabel: string;
  cancelHref: string;
  /** "Remplir depuis le SIREN" is offered (COMPANY_REGISTRY_URL set). */
  registry?: boolean;
}

const SECTIONS: Array<{ title: string; fields: ContactField[] }> = [
  { title: 'Identité', fields: ['type', 'first_name', 'last_name', 'company'] },
  { title: 'Coordonnées', fields: ['email', 'phone', 'address', 'postal_code', 'city', 'country'] },
  { title: 'Entreprise et facturation', fields: ['siret', 'vat_intra', 'default_payment_terms', 'default_discount_terms', 'preferred_language', 'reminder_opt_out'] },
  { title: 'Consentement marketing', fields: ['marketing_consent', 'consent_source', 'legal_basis'] },
  { title: 'Suivi commercial', fields: ['lead_status', 'lead_score', 'tags', 'notes'] },
];

const HINTS: Partial<Record<ContactField, string>> = {
  last_name: 'Un contact a besoin d’un nom ou d’une société.',
  country: 'Code ISO à deux lettres ; FR si vide.',
  siret: '14 chiffres ; le SIREN en est déduit.',
  vat_intra: 'Préfixe du pays puis 2 à 13 caractères, par exemple FR44732829320.',
  consent_source: 'Où le consentement a été recueilli (formulaire, salon, appel…).',
  legal_basis: 'Base légale du traitement (RGPD art. 6).',
  lead_score: 'Entier de 0 à 100.',
  tags: 'Séparées par des virgules.',
};

/** The first error of a field, its items included (`tags.2`). */
function errorOf(errors: Record<string, string> | undefined, field: string) {
  if (!errors) return undefined;
  return errors[field] ?? Object.entries(errors).find(([key]) => key.startsWith(`${field}.`))?.[1];
}

/**
 * Create and edit form: every field of the payload. The server action validates with the API's schemas, so the
 * messages are the API's. After a refusal the form remounts (key) with what was typed.
 */
export function ContactForm({ action, initial, submitLabel, cancelHref, registry = false }: Props) {
  const [state, formAction] = useActionState(action, initialFormState);
  const texts: Texts = state.texts ?? initial;

  return (
    <form className="form" action={formAction} key={state.attempt} noValidate>
      {SECTIONS.map((section) => (
        <section className="card" key={section.title}>
          <h2>{section.title}</h2>
          {registry && section.fields.includes('siret') && (
            <CompanyRegistryFill
              from={['siret']}
              fill={{ company: 'legal_name', siret: 'siret', vat_intra: 'vat_number', address: 'address', postal_code: 'postal_code', city: 'city' }}
            />
          )}
          <div className="grid-2">
            {section.fields.map((field) => (
              <FieldInput key={field} field={field} value={texts[field] ?? ''} error={errorOf(state.errors, field)} />
            ))}
          </div>
        </section>
      ))}
      <FormActions state={state} refused="Le contact n’a pas été enregistré : corrigez les champs signalés." placed={SECTIONS.flatMap((s) => s.fields)}>
        <SubmitButton pendingLabel="Enregistrement…">{submitLabel}</SubmitButton>
        <LinkButton variant="ghost" href={cancelHref}>
          Annuler
        </LinkButton>
      </FormActions>
    </form>
  );
}

function FieldInput({ field, value, error }: { field: ContactField; value: string; error?: string }) {
  const id = `contact-${field}`;
  if (field === 'reminder_opt_out') {
    return (
      <CheckboxField
        id={id}
        name={field}
        label={FIELD_LABELS[field]}
        hint="Ne jamais envoyer de relance de paiement automatique à ce contact."
        error={error}
        defaultChecked={value === 'on'}
      />
    );
  }
  return (
    <Field id={id} label={FIELD_LABELS[field]} hint={HINTS[field]} error={error}>
      <Control field={field} value={value} />
    </Field>
  );
}

/** The input of a field: a list for the enumerations, a text area for the long texts. */
function Control({ field, value }: { field: ContactField; value: string }) {
  switch (field) {
    case 'type':
      return (
        <Select name={field} defaultValue={value || 'professionnel'}>
          {Object.entries(TYPE_LABELS).map(([v, label]) => (
            <option key={v} value={v}>
              {label}
            </option>
          ))}
        </Select>
      );
    case 'preferred_language':
      return (
        <Select name={field} defaultValue={value}>
          <option value="">—</option>
          {Object.entries(LANGUAGE_LABELS).map(([v, label]) => (
            <option key={v} value={v}>
              {label}
            </option>
          ))}
        </Select>
      );
    case 'lead_status':
      return (
        <Select name={field} defaultValue={value}>
          <option value="">—</option>
          {LEAD_STATUSES.map((s) => (
            <option key={s} value={s}>
              {LEAD_STATUS_LABELS[s]}
            </option>
          ))}
        </Select>
      );
    case 'marketing_consent':
      return (
        <Select name={field} defaultValue={value}>
          <option value="">Jamais demandé</option>
          <option value="true">Oui, consenti</option>
          <option value="false">Non, refusé</option>
        </Select>
      );
    case 'notes':
    case 'default_payment_terms':
    case 'default_discount_terms':
      return <TextArea name={field} rows={field === 'notes' ? 4 : 2} defaultValue={value} />;
    case 'email':
      return <Input name={field} type="email" autoComplete="off" defaultValue={value} />;
    case 'lead_score':
      return <Input name={field} inputMode="numeric" defaultValue={value} />;
    default:
      return <Input name={field} defaultValue={value} />;
  }
}
