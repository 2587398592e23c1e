'use client';

import { useActionState, useState } from 'react';
import { type SendActionState, sendDocumentAction } from './send-document-actions';

interface Props {
  documentId: string;
  /** "la facture FAC-2026-00012". */
  what: string;
  /** The contact's address, the default recipient; null when it has none. */
  contactEmail: string | null;
  language: 'fr' | 'en';
  sentBefore: boolean;
}

/** The "send by e-mail" dialog: recipient (default: the contact's), copies, subject and message for this send only. */
export function SendDocumentDialog({ documentId, what, contactEmail, language, sentBefore }: Props) {
  const [open, setOpen] = useState(false);
  const [state, formAction, pending] = useActionState<SendActionState, FormData>(sendDocumentAction.bind(null, documentId), {});
  const error = (name: string) => state.errors?.[name];
  const field = (name: string) => `send-${name}-${documentId}`;
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
          {state.error && !Object.keys(state.errors ?? {}).length && (
            <p className="form-error" role="alert">
              {state.error}
            </p>
          )}
          <div className="grid-2">
            <div className="field" data-invalid={Boolean(error('email'))}>
              <label htmlFor={field('email')}>Destinataire</label>
              <input id={field('email')} name="email" type="email" placeholder={contactEmail ?? 'adresse@client.fr'} />
              <span className="hint">{contactEmail ? `Vide : ${contactEmail}.` : 'Le contact n’a pas d’adresse : indiquez-en une.'}</span>
              {error('email') && <span className="field-error">{error('email')}</span>}
            </div>
            <div className="field" data-invalid={Boolean(error('cc'))}>
              <label htmlFor={field('cc')}>Copie à</label>
              <input id={field('cc')} name="cc" type="text" placeholder="compta@client.fr, associe@client.fr" />
              {error('cc') && <span className="field-error">{error('cc')}</span>}
            </div>
          </div>
          <div className="field" data-invalid={Boolean(error('subject'))}>
            <label htmlFor={field('subject')}>Objet</label>
            <input id={field('subject')} name="subject" type="text" placeholder="Vide : l’objet du modèle" />
            {error('subject') && <span className="field-error">{error('subject')}</span>}
          </div>
          <div className="field" data-invalid={Boolean(error('message'))}>
            <label htmlFor={field('message')}>Message</label>
            <textarea id={field('message')} name="message" rows={4} placeholder="Cité tel quel dans l’e-mail (facultatif)." />
            {error('message') && <span className="field-error">{error('message')}</span>}
          </div>
          <div className="form-actions">
            <button type="submit" className="btn btn-primary" disabled={pending}>
              {pending ? 'Envoi…' : 'Envoyer'}
            </button>
            <button type="button" className="btn btn-ghost" onClick={() => setOpen(false)}>
              Fermer
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
