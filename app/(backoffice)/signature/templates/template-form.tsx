'use client';

import { useActionState } from 'react';
import { Field, FormActions, Input, SubmitButton, TextArea } from '@/components/ui';
import { initialFormState } from '@/lib/platform/next/client';
import { createTemplateAction } from '../actions';

const PLACED = ['name', 'subject', 'message', 'labels', 'cc_recipients'];

/** Creates a template (works without JavaScript); its errors sit beside their fields, what was typed stays. */
export function TemplateForm() {
  const [state, action] = useActionState(createTemplateAction, initialFormState);
  const texts = state.done ? {} : (state.texts ?? {});
  const error = (name: string) => state.errors?.[name];
  return (
    <form action={action} className="form" key={state.attempt} aria-label="Nouveau modèle de signature">
      <div className="grid-2">
        <Field id="tpl-name" label="Nom du modèle" error={error('name')}>
          <Input name="name" required defaultValue={texts.name} />
        </Field>
        <Field id="tpl-subject" label="Objet de l’e-mail" error={error('subject')}>
          <Input name="subject" defaultValue={texts.subject} />
        </Field>
      </div>
      <Field id="tpl-message" label="Message aux signataires" error={error('message')}>
        <TextArea name="message" rows={3} defaultValue={texts.message} />
      </Field>
      <div className="grid-2">
        <Field id="tpl-labels" label="Étiquettes" hint="Séparées par des virgules." error={error('labels')}>
          <Input name="labels" defaultValue={texts.labels} />
        </Field>
        <Field id="tpl-cc" label="En copie de la notification de fin" hint="Adresses e-mail séparées par des virgules." error={error('cc_recipients')}>
          <Input name="cc_recipients" defaultValue={texts.cc_recipients} />
        </Field>
      </div>
      <FormActions state={state} refused="Le modèle n’a pas été créé : corrigez les champs signalés." placed={PLACED}>
        <SubmitButton pendingLabel="Création…">Créer le modèle</SubmitButton>
      </FormActions>
    </form>
  );
}
