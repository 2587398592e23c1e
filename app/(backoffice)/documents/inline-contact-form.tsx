'use client';

import { useId, useState, useTransition } from 'react';
import { Button, Field, Input, Select } from '@/components/ui';
import { isRefusal } from '@/lib/platform/next/client';
import { type ContactChoice, createInlineContactAction } from './actions';

/** The contact's fields the service may refuse, shown beside this form's four. */
const FIELD_OF: Record<string, 'name' | 'email' | 'siret' | 'type'> = {
  company: 'name',
  last_name: 'name',
  first_name: 'name',
  name: 'name',
  email: 'email',
  siret: 'siret',
  type: 'type',
};

/**
 * The small form "Créer « … »" opens under the client picker: name, type, e-mail, SIRET for a French business.
 * Not a <form> (it sits inside the editor's): its button calls the server action, and the contact it answers is
 * picked as if found by the search, the draft's lines untouched.
 */
export function InlineContactForm({ name, onCreated, onCancel }: { name: string; onCreated: (c: ContactChoice) => void; onCancel: () => void }) {
  const id = useId();
  const [values, setValues] = useState({ name, type: 'professionnel' as 'professionnel' | 'particulier', email: '', siret: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [pending, start] = useTransition();
  const set = (key: keyof typeof values) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [key]: e.target.value }));

  const submit = () =>
    start(async () => {
      const answer = await createInlineContactAction({ ...values, siret: values.type === 'professionnel' ? values.siret : '' });
      if (isRefusal(answer)) {
        const byField: Record<string, string> = {};
        for (const [key, message] of Object.entries(answer.errors ?? {})) byField[FIELD_OF[key] ?? '_form'] ??= message;
        if (answer.error && !Object.keys(byField).length) byField._form = answer.error;
        setErrors(byField);
        return;
      }
      onCreated(answer);
    });

  return (
    <fieldset
      className="card inline-contact"
      // Enter in these fields creates the client; it never submits the editor around them.
      onKeyDown={(e) => {
        if (e.key === 'Enter' && e.target instanceof HTMLInputElement) {
          e.preventDefault();
          submit();
        }
      }}
    >
      <legend>Nouveau client</legend>
      {errors._form && (
        <p className="form-error" role="alert">
          {errors._form}
        </p>
      )}
      <div className="grid-2">
        <Field id={`${id}-name`} label="Nom ou raison sociale" error={errors.name}>
          <Input value={values.name} onChange={set('name')} autoComplete="off" />
        </Field>
        <Field id={`${id}-type`} label="Type" error={errors.type}>
          <Select value={values.type} onChange={set('type')}>
            <option value="professionnel">Professionnel</option>
            <option value="particulier">Particulier</option>
          </Select>
        </Field>
        <Field id={`${id}-email`} label="E-mail" hint="Pour lui envoyer le document." error={errors.email}>
          <Input type="email" value={values.email} onChange={set('email')} autoComplete="off" />
        </Field>
        {values.type === 'professionnel' && (
          <Field id={`${id}-siret`} label="SIRET" hint="14 chiffres, pour une entreprise française." error={errors.siret}>
            <Input value={values.siret} onChange={set('siret')} inputMode="numeric" autoComplete="off" />
          </Field>
        )}
      </div>
      <div className="form-actions">
        <Button variant="primary" onClick={submit} disabled={pending}>
          {pending ? 'Création…' : 'Créer et choisir ce client'}
        </Button>
        <Button variant="ghost" onClick={onCancel}>
          Annuler
        </Button>
      </div>
    </fieldset>
  );
}
