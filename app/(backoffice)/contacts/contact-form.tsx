'use client';

import Link from 'next/link';
import { useActionState } from 'react';
import { type ContactField, LEAD_STATUSES } from '@/lib/contacts/payload';
import type { ContactFormState } from './actions';
import { FIELD_LABELS, LANGUAGE_LABELS, LEAD_STATUS_LABELS, TYPE_LABELS } from './labels';

type Texts = Partial<Record<ContactField, string>>;

interface Props {
  action: (prev: ContactFormState, form: FormData) => Promise<ContactFormState>;
  initial: Texts;
  submitLabel: string;
  cancelHref: string;
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
export function ContactForm({ action, initial, submitLabel, cancelHref }: Props) {
  const [state, formAction, pending] = useActionState<ContactFormState, FormData>(action, { attempt: 0 });
  const texts = state.texts ?? initial;
  const unplaced = Object.entries(state.errors ?? {}).filter(([key]) => !SECTIONS.some((s) => s.fields.some((f) => key === f || key.startsWith(`${f}.`))));

  return (
    <form className="form" action={formAction} key={state.attempt} noValidate>
      {state.errors && (
        <div className="form-error" role="alert">
          Le contact n’a pas été enregistré : corrigez les champs signalés.
          {unplaced.map(([key, message]) => (
            <div key={key}>{key === '_form' ? message : `${key}: ${message}`}</div>
          ))}
        </div>
      )}
      {SECTIONS.map((section) => (
        <section className="card" key={section.title}>
          <h2>{section.title}</h2>
          <div className="grid-2">
            {section.fields.map((field) => (
              <FieldInput key={field} field={field} value={texts[field] ?? ''} error={errorOf(state.errors, field)} />
            ))}
          </div>
        </section>
      ))}
      <div className="form-actions">
        <button className="btn btn-primary" type="submit" disabled={pending}>
          {pending ? 'Enregistrement…' : submitLabel}
        </button>
        <Link className="btn btn-ghost" href={cancelHref}>
          Annuler
        </Link>
      </div>
    </form>
  );
}

function FieldInput({ field, value, error }: { field: ContactField; value: string; error?: string }) {
  const id = `contact-${field}`;
  const described = [HINTS[field] && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
  const common = { id, name: field, 'aria-invalid': error ? true : undefined, 'aria-describedby': described };

  let input: React.ReactNode;
  switch (field) {
    case 'type':
      input = (
        <select {...common} defaultValue={value || 'professionnel'}>
          {Object.entries(TYPE_LABELS).map(([v, label]) => (
            <option key={v} value={v}>
              {label}
            </option>
          ))}
        </select>
      );
      break;
    case 'preferred_language':
      input = (
        <select {...common} defaultValue={value}>
          <option value="">—</option>
          {Object.entries(LANGUAGE_LABELS).map(([v, label]) => (
            <option key={v} value={v}>
              {label}
            </option>
          ))}
        </select>
      );
      break;
    case 'lead_status':
      input = (
        <select {...common} defaultValue={value}>
          <option value="">—</option>
          {LEAD_STATUSES.map((s) => (
            <option key={s} value={s}>
              {LEAD_STATUS_LABELS[s]}
            </option>
          ))}
        </select>
      );
      break;
    case 'marketing_consent':
      input = (
        <select {...common} defaultValue={value}>
          <option value="">Jamais demandé</option>
          <option value="true">Oui, consenti</option>
          <option value="false">Non, refusé</option>
        </select>
      );
      break;
    case 'reminder_opt_out':
      return (
        <div className="field" data-invalid={Boolean(error)}>
          <label>
            <input {...common} type="checkbox" defaultChecked={value === 'on'} /> {FIELD_LABELS[field]}
          </label>
          <span className="hint">Ne jamais envoyer de relance de paiement automatique à ce contact.</span>
          {error && (
            <span className="field-error" id={`${id}-error`}>
              {error}
            </span>
          )}
        </div>
      );
    case 'notes':
    case 'default_payment_terms':
    case 'default_discount_terms':
      input = <textarea {...common} rows={field === 'notes' ? 4 : 2} defaultValue={value} />;
      break;
    case 'email':
      input = <input {...common} type="email" autoComplete="off" defaultValue={value} />;
      break;
    case 'lead_score':
      input = <input {...common} type="text" inputMode="numeric" defaultValue={value} />;
      break;
    default:
      input = <input {...common} type="text" defaultValue={value} />;
  }
  return (
    <div className="field" data-invalid={Boolean(error)}>
      <label htmlFor={id}>{FIELD_LABELS[field]}</label>
      {input}
      {HINTS[field] && (
        <span className="hint" id={`${id}-hint`}>
          {HINTS[field]}
        </span>
      )}
      {error && (
        <span className="field-error" id={`${id}-error`}>
          {error}
        </span>
      )}
    </div>
  );
}
