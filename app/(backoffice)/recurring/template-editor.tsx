'use client';

import Link from 'next/link';
import { startTransition, useActionState, useEffect, useState } from 'react';
import { CheckboxField, Field, FormActions, Input, LinkButton, Select, SubmitButton, TextArea } from '@/components/ui';
import { initialFormState } from '@/lib/platform/next/client';
import { frenchFieldMessage } from '@/lib/platform/i18n';
import { ChosenContact, ContactPicker } from '../documents/contact-picker';
import { errorAt, type LineDraft } from '../documents/editor-model';
import { OPERATION_NATURE_LABELS } from '../documents/labels';
import { LinesEditor } from '../documents/lines-editor';
import { contactMandateAction, saveTemplateAction } from './actions';
import { type TemplateForm, toTemplatePayload } from './editor-model';
import { FREQUENCY_LABELS, FREQUENCY_SENTENCES, type Frequency } from './labels';

interface Props {
  /** The template edited; null for a new one. */
  id: string | null;
  initial: TemplateForm;
  contact: { id: string; name: string } | null;
  cancelHref: string;
}

const PLACED = ['contact_id', 'frequency', 'next_generation_date', 'title', 'notes', 'operation_nature', 'auto_send', 'auto_collect_sepa', 'items'];
const placed = (key: string) => PLACED.includes(key) || /^items\.\d+\./.test(key);

type MandateState = 'active' | 'pending' | 'revoked' | 'inactive' | null | 'unknown';

/** What auto-collection will do for this client, in one sentence. */
function mandateSentence(state: MandateState): string {
  if (state === 'active') return 'Ce client a un mandat SEPA actif : chaque facture envoyée sera prélevée sur son compte.';
  if (state === 'pending') return 'Le mandat SEPA de ce client attend la confirmation de sa banque : le prélèvement échouera tant qu’il n’est pas actif.';
  if (state === 'unknown') return 'Choisissez d’abord le client : le prélèvement demande qu’il ait un mandat SEPA actif.';
  return 'Ce client n’a pas de mandat SEPA actif : le prélèvement échouera et la facture suivra ses relances. Envoyez-lui d’abord un lien de mise en place du mandat depuis sa fiche.';
}

/**
 * The recurring template editor: client, frequency and next date, the lines through the document editor's own
 * LinesEditor (discounts included), the nature of the operation, and the two automatic steps in plain sentences.
 * The server action validates with lib/domain/recurring's schemas; their French messages come back beside their field.
 */
export function TemplateEditor({ id, initial, contact: initialContact, cancelHref }: Props) {
  const [form, setForm] = useState<TemplateForm>(initial);
  const [contact, setContact] = useState(initialContact);
  const [mandate, setMandate] = useState<MandateState>('unknown');
  const [state, dispatch, pending] = useActionState(saveTemplateAction, initialFormState);
  const [errors, setErrors] = useState<Record<string, string>>({});
  // Each refusal, the browser's or the server's, is a new attempt: FormActions then focuses the first field in error.
  const [refusals, setRefusals] = useState(0);
  const refuse = (found: Record<string, string>) => {
    setErrors(found);
    if (Object.keys(found).length) setRefusals((n) => n + 1);
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: refuse only sets state; the answer is what changes.
  useEffect(() => refuse(state.errors ?? (state.error ? { _form: state.error } : {})), [state]);

  // The client's mandate decides what auto-collection can do: asked again whenever the client changes.
  useEffect(() => {
    if (!contact) {
      setMandate('unknown');
      return;
    }
    let live = true;
    contactMandateAction(contact.id).then((r) => {
      if (live) setMandate(typeof r === 'object' && r !== null ? 'unknown' : r);
    });
    return () => {
      live = false;
    };
  }, [contact]);

  const set = <K extends keyof TemplateForm>(key: K, value: TemplateForm[K]) => setForm((f) => ({ ...f, [key]: value }));
  const reshape = (lines: LineDraft[]) => {
    setForm((f) => ({ ...f, lines }));
    setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !k.startsWith('items'))));
  };
  const error = (name: string) => errorAt(errors, name);

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const { payload, errors: local } = toTemplatePayload(form, id ? 'update' : 'create');
    if (Object.keys(local).length) {
      refuse(Object.fromEntries(Object.entries(local).map(([k, m]) => [k, frenchFieldMessage(k, m)])));
      return;
    }
    startTransition(() => dispatch({ id, payload }));
  };

  return (
    <form className="form" onSubmit={submit} noValidate aria-label="Éditeur de modèle récurrent">
      <section className="card">
        <h2>Client</h2>
        <Field id="doc-contact_id" hint="Chaque facture générée porte ses conditions de paiement par défaut." error={error('contact_id')}>
          {contact ? (
            <ChosenContact name={contact.name} onChange={() => setContact(null)} />
          ) : (
            <ContactPicker
              label="Client"
              placeholder="Rechercher un contact (nom, société, e-mail)"
              onPick={(c) => {
                setContact({ id: c.id, name: c.name });
                set('contact_id', c.id);
              }}
            />
          )}
        </Field>
      </section>

      <section className="card">
        <h2>Calendrier</h2>
        <div className="grid-2">
          <Field id="doc-frequency" label="Fréquence" error={error('frequency')}>
            <Select value={form.frequency} onChange={(e) => set('frequency', e.target.value as Frequency)}>
              {Object.entries(FREQUENCY_LABELS).map(([v, label]) => (
                <option key={v} value={v}>
                  {label}
                </option>
              ))}
            </Select>
          </Field>
          <Field
            id="doc-next_generation_date"
            label="Prochaine facture le"
            hint={`Puis ${FREQUENCY_SENTENCES[form.frequency]} le même jour (le dernier jour d’un mois plus court).`}
            error={error('next_generation_date')}
          >
            <Input type="date" value={form.next_generation_date} onChange={(e) => set('next_generation_date', e.target.value)} />
          </Field>
        </div>
      </section>

      <section className="card">
        <h2>Lignes</h2>
        <LinesEditor lines={form.lines} errors={errors} update={(change) => setForm((f) => ({ ...f, lines: change(f.lines) }))} reshape={reshape} />
      </section>

      <section className="card">
        <h2>Facture générée</h2>
        <div className="grid-2">
          <Field id="doc-title" label="Objet" error={error('title')}>
            <Input value={form.title} onChange={(e) => set('title', e.target.value)} />
          </Field>
          <Field
            id="doc-operation_nature"
            label="Nature de l’opération"
            hint="Mention obligatoire d’une facture finalisée : à renseigner pour l’envoi automatique."
            error={error('operation_nature')}
          >
            <Select value={form.operation_nature} onChange={(e) => set('operation_nature', e.target.value as TemplateForm['operation_nature'])}>
              <option value="">—</option>
              {Object.entries(OPERATION_NATURE_LABELS).map(([v, label]) => (
                <option key={v} value={v}>
                  {label}
                </option>
              ))}
            </Select>
          </Field>
        </div>
        <Field id="doc-notes" label="Notes imprimées sur la facture" error={error('notes')}>
          <TextArea rows={3} value={form.notes} onChange={(e) => set('notes', e.target.value)} />
        </Field>
        <p className="hint muted">
          Conditions de paiement, échéance et escompte : ceux du client, sinon ceux des <Link href="/settings/invoicing">réglages de facturation</Link>, au
          jour où chaque facture est générée.
        </p>
      </section>

      <section className="card">
        <h2>Automatismes</h2>
        <CheckboxField
          id="doc-auto_send"
          label="Finaliser et envoyer chaque facture par e-mail"
          hint={
            form.auto_send
              ? 'Chaque facture est numérotée, scellée et envoyée à l’e-mail du client le jour venu (avec le lien de paiement si le paiement en ligne est activé).'
              : 'Chaque facture reste un brouillon à relire, finaliser et envoyer vous-même.'
          }
          error={error('auto_send')}
          checked={form.auto_send}
          onChange={(e) => set('auto_send', e.target.checked)}
        />
        <CheckboxField
          id="doc-auto_collect_sepa"
          label="Prélever chaque facture envoyée sur le mandat SEPA du client"
          hint={form.auto_collect_sepa ? mandateSentence(mandate) : 'Aucun prélèvement : le client paie comme il le souhaite.'}
          error={error('auto_collect_sepa')}
          checked={form.auto_collect_sepa}
          onChange={(e) => set('auto_collect_sepa', e.target.checked)}
        />
        {form.auto_collect_sepa && !form.auto_send && (
          <p className="notice notice-warning" role="note">
            Le prélèvement suit l’envoi automatique : sans lui, aucune facture n’est prélevée.
          </p>
        )}
      </section>

      <FormActions
        state={{ attempt: refusals, errors }}
        refused="Le modèle n’a pas été enregistré : corrigez les champs signalés."
        placed={(key) => key !== '_form' && placed(key)}
      >
        <SubmitButton pending={pending} pendingLabel="Enregistrement…">
          {id ? 'Enregistrer le modèle' : 'Créer le modèle'}
        </SubmitButton>
        <LinkButton variant="ghost" href={cancelHref}>
          Annuler
        </LinkButton>
      </FormActions>
    </form>
  );
}
