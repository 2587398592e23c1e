'use client';

import { useActionState, useState } from 'react';
import { type BoundFormAction, initialFormState } from '@/lib/http/form-state';
import { Field, FormErrors, Input, SubmitButton, TextArea } from './form';

interface Props {
  documentId: string;
  /** Sends this document (bound on the server). */
  action: BoundFormAction;
  /** "la facture FAC-2026-00012". */
  what: string;
  /** The contact's address, the default recipient; null when it has none. */
  contactEmail: string | null;
  language: 'fr' | 'en';
  sentBefore: boolean;
}

/** The "send by e-mail" dialog: recipient (default: the contact's), copies, subject and message for this send only. */
export function SendDocumentDialog({ documentId, action, what, contactEmail, language, sentBefore }: Props) {
  const [open, setOpen] = useState(false);
  const [state, formAction] = useActionState(action, initialFormState);
  const error = (name: string) => state.errors?.[name];
  const id = (name: string) => `send-${name}-${documentId}`;
  return (
    <section className="card" aria-label="Envoi par e-mail">
      <div className="toolbar">
        <button type="button" className="btn btn-primary" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
          {sentBefore ? 'Renvoyer par e-mail…' : 'Envoyer par e-mail…'}
        </button>
        {state.done && (
          <span className="notice notice-success" role="status">
            {state.done}
          </span>
        )}
      </div>
      {open && (
        <form className="form" action={formAction} noValidate role="dialog" aria-label={`Envoyer ${what}`} style={{ marginTop: 12 }}>
          <p className="muted">
            Envoie {what} avec son PDF, en {language === 'en' ? 'anglais' : 'français'} (langue du contact). Ces champs valent pour cet envoi
            seulement : la fiche du contact n’est pas modifiée.
          </p>
          <FormErrors state={state} placed={['email', 'cc', 'subject', 'message']} />
          <div className="grid-2">
            <Field id={id('email')} label="Destinataire" hint={contactEmail ? `Vide : ${contactEmail}.` : 'Le contact n’a pas d’adresse : indiquez-en une.'} error={error('email')}>
              <Input name="email" type="email" placeholder={contactEmail ?? 'adresse@client.fr'} />
            </Field>
            <Field id={id('cc')} label="Copie à" error={error('cc')}>
              <Input name="cc" placeholder="compta@client.fr, associe@client.fr" />
            </Field>
          </div>
          <Field id={id('subject')} label="Objet" error={error('subject')}>
            <Input name="subject" placeholder="Vide : l’objet du modèle" />
          </Field>
          <Field id={id('message')} label="Message" error={error('message')}>
            <TextArea name="message" rows={4} placeholder="Cité tel quel dans l’e-mail (facultatif)." />
          </Field>
          <div className="form-actions">
            <SubmitButton pendingLabel="Envoi…">Envoyer</SubmitButton>
            <button type="button" className="btn btn-ghost" onClick={() => setOpen(false)}>
              Fermer
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
