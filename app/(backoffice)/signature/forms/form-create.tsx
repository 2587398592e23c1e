'use client';

import { useActionState } from 'react';
import { Field, FormActions, Input, Select, SubmitButton } from '@/components/ui';
import { initialFormState } from '@/lib/platform/next/client';
import { createFormAction } from './actions';

const PLACED = ['title', 'file', 'template_id', 'verification_method'];

/** Creates a public form around an uploaded PDF (works without JavaScript). */
export function FormCreate({ templates }: { templates: Array<{ id: string; name: string }> }) {
  const [state, action] = useActionState(createFormAction, initialFormState);
  const texts = state.done ? {} : (state.texts ?? {});
  const error = (name: string) => state.errors?.[name];
  return (
    <form action={action} className="form" key={state.attempt} aria-label="Nouveau formulaire de signature">
      <div className="grid-2">
        <Field id="form-title" style={{ minWidth: 0 }} label="Titre affiché aux visiteurs" error={error('title')}>
          <Input name="title" required maxLength={200} defaultValue={texts.title} />
        </Field>
        <Field id="form-file" style={{ minWidth: 0 }} label="Document à signer (PDF, 20 Mo au plus)" error={error('file')}>
          <input id="form-file" type="file" style={{ maxWidth: '100%' }} name="file" accept="application/pdf" required />
        </Field>
      </div>
      <div className="grid-2">
        <Field id="form-template" style={{ minWidth: 0 }} label="Modèle (objet, message, étiquettes)" error={error('template_id')}>
          <Select style={{ width: '100%' }} name="template_id" defaultValue={texts.template_id ?? ''}>
            <option value="">Aucun</option>
            {templates.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </Select>
        </Field>
        <Field id="form-method" style={{ minWidth: 0 }} label="Vérification au moment de signer" error={error('verification_method')}>
          <Select style={{ width: '100%' }} name="verification_method" defaultValue={texts.verification_method ?? 'email_otp'}>
            <option value="email_otp">Code par e-mail</option>
            <option value="sms_otp">Code par SMS</option>
            <option value="none">Aucune</option>
          </Select>
        </Field>
      </div>
      <FormActions state={state} refused="Le formulaire n’a pas été créé : corrigez les champs signalés." placed={PLACED}>
        <SubmitButton pendingLabel="Création…">Créer le formulaire</SubmitButton>
      </FormActions>
    </form>
  );
}
