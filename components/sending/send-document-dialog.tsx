'use client';

import { useActionState, useRef, useState, useTransition } from 'react';
import { type BoundFormAction, initialFormState, isRefusal } from '@/lib/platform/next/client';
import type { SendPreview } from '@/lib/domain/sending';
import { previewSendAction } from './send-document-actions';
import Link from 'next/link';
import { CODE_MESSAGES } from '@/lib/platform/i18n';
import { Button, CheckboxField, Dialog, Field, FormErrors, Input, SubmitButton, TextArea } from '@/components/ui';

/** What the org can do about online payment for this document: null when the document cannot be paid online. */
export interface PayLinkOffer {
  /** The org can take payments now: the box is checked by default. */
  ready: boolean;
}

// The refusals of a send with the pay link that only Settings → Paiements can lift: said with a link to it.
const SETTINGS_REFUSALS = new Set(
  ['payments_disabled', 'payments_account_required', 'payments_account_not_ready', 'payments_account_not_found'].map((code) => CODE_MESSAGES[code]),
);

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
  /** « Joindre le lien de paiement » for an invoice payable online, checked when the org takes payments. */
  payLink: PayLinkOffer | null;
}

/**
 * The one send dialog: recipient (default: the contact's), copies, subject and message for this send only, the pay
 * link for an invoice payable online, and the preview of the e-mail as it will leave.
 */
export function SendDocumentDialog({ documentId, action, what, contactEmail, language, sentBefore, payLink }: Props) {
  const [open, setOpen] = useState(false);
  const [state, formAction] = useActionState(action, initialFormState);
  const form = useRef<HTMLFormElement>(null);
  const [preview, setPreview] = useState<(SendPreview & { pay_link: boolean }) | string | null>(null);
  const [previewing, startPreview] = useTransition();
  const showPreview = () =>
    startPreview(async () => {
      const fields = Object.fromEntries([...new FormData(form.current!).entries()].map(([k, v]) => [k, String(v)]));
      const result = await previewSendAction(documentId, fields);
      setPreview(isRefusal(result) ? (result.error ?? 'Aperçu impossible.') : result);
    });
  const error = (name: string) => state.errors?.[name];
  const id = (name: string) => `send-${name}-${documentId}`;
  return (
    <section className="card" aria-label="Envoi par e-mail">
      <div className="toolbar">
        <Button variant="primary" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
          {sentBefore ? 'Renvoyer par e-mail…' : 'Envoyer par e-mail…'}
        </Button>
        {state.done && (
          <span className="notice notice-success" role="status">
            {state.done}
          </span>
        )}
      </div>
      {open && (
        <Dialog label={`Envoyer ${what}`} tone="plain" style={{ marginTop: 12 }}>
          <form ref={form} className="form" action={formAction} noValidate>
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
            {payLink && (
              <CheckboxField
                id={id('pay_link')}
                name="pay_link"
                label="Joindre le lien de paiement"
                defaultChecked={payLink.ready}
                hint={
                  payLink.ready
                    ? 'Un bouton « Payer en ligne » vers la page où le client paie par carte ou prélèvement SEPA, sans compte.'
                    : 'Le compte de paiement en ligne n’accepte pas encore de paiements : terminez sa configuration dans Réglages → Paiements.'
                }
              />
            )}
            {SETTINGS_REFUSALS.has(state.error ?? state.errors?._form ?? '') && (
              <p>
                <Link href="/settings/payments">Ouvrir Réglages → Paiements</Link>
              </p>
            )}
            {typeof preview === 'string' && (
              <p className="form-error" role="alert">
                {preview}
              </p>
            )}
            {preview && typeof preview !== 'string' && (
              <section className="email-preview" aria-label="Aperçu de l’e-mail">
                <dl className="props">
                  <dt>À</dt>
                  <dd>{[preview.to, ...preview.cc].join(', ')}</dd>
                  <dt>Objet</dt>
                  <dd>{preview.subject}</dd>
                </dl>
                <pre>{preview.text}</pre>
                <p className="muted">Avec le PDF en pièce jointe{preview.pay_link ? ' et le lien de paiement en ligne (créé à l’envoi s’il n’existe pas encore)' : ''}.</p>
              </section>
            )}
            <div className="form-actions">
              <SubmitButton pendingLabel="Envoi…">Envoyer</SubmitButton>
              <Button onClick={showPreview} disabled={previewing}>
                {previewing ? 'Aperçu…' : 'Aperçu de l’e-mail'}
              </Button>
              <Button variant="ghost" onClick={() => setOpen(false)}>
                Fermer
              </Button>
            </div>
          </form>
        </Dialog>
      )}
    </section>
  );
}
