'use client';

import { startTransition, useActionState, useEffect, useState } from 'react';
import { Field, FieldError, FormActions, Input, LinkButton, QuantityInput, Select, SubmitButton, TextArea } from '@/components/ui';
import type { DocumentType } from '@/db/schema/billing';
import { initialFormState } from '@/lib/platform/next/client';
import { type ContactChoice, type SaveTarget, saveDocumentAction } from './actions';
import { type DraftForm, dueDateFor, errorAt, type LineDraft, termsFor, toPayload, validityDateFor } from './editor-model';
import { ofDocument } from '@/lib/platform/i18n';
import { OPERATION_NATURE_LABELS, PAYMENT_PLAN_LABELS, VAT_EXIGIBILITY_LABELS } from './labels';
import { ChosenContact, ContactPicker } from './contact-picker';
import { InlineContactForm } from './inline-contact-form';
import { LinesEditor } from './lines-editor';

interface Props {
  target: SaveTarget;
  type: DocumentType;
  initial: DraftForm;
  contact: { id: string; name: string } | null;
  settings: { default_payment_terms: string | null; default_discount_terms: string | null; default_validity_days: number };
  cancelHref: string;
}

/** Fields the editor places; an error on any other key is listed above the form. */
const PLACED = [
  'contact_id',
  'issue_date',
  'due_date',
  'validity_date',
  'service_date',
  'title',
  'description',
  'notes',
  'payment_terms',
  'payment_method',
  'discount_terms',
  'execution_timeline',
  'operation_nature',
  'vat_exigibility',
  'deposit_request_percentage',
  'payment_plan_kind',
  'payment_plan_config',
  'items',
];
const placed = (key: string) => PLACED.includes(key) || /^items\.\d+\./.test(key) || key.startsWith('delivery_address') || key.startsWith('payment_plan_config');

/**
 * The draft editor: client, lines, dates and terms, with live totals from lib/platform/money (the server's module). The
 * server action validates with the API's schemas and services; their messages come back beside their field.
 */
export function DocumentEditor({ target, type, initial, contact: initialContact, settings, cancelHref }: Props) {
  const mode = target.id ? 'update' : 'create';
  const [form, setForm] = useState<DraftForm>(initial);
  const [contact, setContact] = useState(initialContact);
  // The name typed in the client picker when "Créer « … »" was chosen: its small form shows instead of the picker.
  const [creating, setCreating] = useState<string | null>(null);
  // The dates follow the issue date and the terms until they are typed by hand.
  const [dueAuto, setDueAuto] = useState(type === 'facture' && (!initial.due_date || initial.due_date === dueDateFor(initial.issue_date, initial.payment_terms)));
  const [validityAuto, setValidityAuto] = useState(
    type === 'devis' && (!initial.validity_date || initial.validity_date === validityDateFor(initial.issue_date, settings.default_validity_days)),
  );
  const [state, dispatch, pending] = useActionState(saveDocumentAction, initialFormState);
  const [errors, setErrors] = useState<Record<string, string>>({});
  // Each refusal, the browser's or the server's, is a new attempt: FormActions then focuses the first field in error.
  const [refusals, setRefusals] = useState(0);
  const refuse = (found: Record<string, string>) => {
    setErrors(found);
    if (Object.keys(found).length) setRefusals((n) => n + 1);
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: refuse only sets state; the answer is what changes.
  useEffect(() => refuse(state.errors ?? (state.error ? { _form: state.error } : {})), [state]);

  const set = <K extends keyof DraftForm>(key: K, value: DraftForm[K]) =>
    setForm((f) => {
      const next = { ...f, [key]: value };
      if (dueAuto && (key === 'issue_date' || key === 'payment_terms') && next.issue_date) next.due_date = dueDateFor(next.issue_date, next.payment_terms);
      if (validityAuto && key === 'issue_date' && next.issue_date) next.validity_date = validityDateFor(next.issue_date, settings.default_validity_days);
      return next;
    });
  // Moving or removing lines shifts their indexes: errors keyed items.N would point at the wrong line.
  const reshape = (lines: LineDraft[]) => {
    setForm((f) => ({ ...f, lines }));
    setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !k.startsWith('items'))));
  };

  const pickContact = (c: ContactChoice) => {
    setCreating(null);
    setContact({ id: c.id, name: c.name });
    const terms = termsFor(c, settings);
    setForm((f) => {
      const next = { ...f, contact_id: c.id, ...terms };
      if (dueAuto && next.issue_date) next.due_date = dueDateFor(next.issue_date, next.payment_terms);
      return next;
    });
  };

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const { payload, errors: local } = toPayload(form, mode);
    if (Object.keys(local).length) {
      refuse(local);
      return;
    }
    startTransition(() => dispatch({ target, payload }));
  };

  const error = (name: string) => errorAt(errors, name);
  // The editor's fields bound to its state; their label, hint and error wiring is the Field's.
  const textInput = (name: keyof DraftForm & string, label: string, hint?: string) => (
    <Field id={`doc-${name}`} label={label} hint={hint} error={error(name)}>
      <Input value={form[name] as string} onChange={(e) => set(name, e.target.value as never)} />
    </Field>
  );
  const dateInput = (name: 'issue_date' | 'due_date' | 'validity_date' | 'service_date', label: string, hint?: string, onTyped?: () => void) => (
    <Field id={`doc-${name}`} label={label} hint={hint} error={error(name)}>
      <Input
        type="date"
        value={form[name]}
        onChange={(e) => {
          onTyped?.();
          set(name, e.target.value);
        }}
      />
    </Field>
  );
  const textArea = (name: 'description' | 'notes' | 'payment_terms' | 'discount_terms' | 'execution_timeline', label: string, rows = 2, hint?: string) => (
    <Field id={`doc-${name}`} label={label} hint={hint} error={error(name)}>
      <TextArea rows={rows} value={form[name]} onChange={(e) => set(name, e.target.value)} />
    </Field>
  );

  return (
    <form className="form" onSubmit={submit} noValidate aria-label={`Éditeur ${ofDocument(type)}`}>
      <section className="card">
        <h2>Client</h2>
        <Field id="doc-contact_id" hint="Ses conditions de paiement et d’escompte par défaut s’appliquent au document." error={error('contact_id')}>
          {contact ? (
            <ChosenContact name={contact.name} onChange={() => setContact(null)} />
          ) : creating !== null ? (
            <InlineContactForm name={creating} onCreated={pickContact} onCancel={() => setCreating(null)} />
          ) : (
            <ContactPicker label="Client" placeholder="Rechercher un contact (nom, société, e-mail)" onPick={pickContact} onCreate={setCreating} />
          )}
        </Field>
      </section>

      <section className="card">
        <h2>Lignes</h2>
        <LinesEditor lines={form.lines} errors={errors} update={(change) => setForm((f) => ({ ...f, lines: change(f.lines) }))} reshape={reshape} />
      </section>

      <section className="card">
        <h2>Dates</h2>
        <div className="grid-2">
          {dateInput('issue_date', 'Date d’émission', 'Une date passée devient celle du jour à la finalisation.')}
          {type === 'devis' &&
            dateInput(
              'validity_date',
              'Valable jusqu’au',
              validityAuto ? `${settings.default_validity_days} jours après l’émission (réglages).` : undefined,
              () => setValidityAuto(false),
            )}
          {(type === 'facture' || type === 'acompte') &&
            dateInput('due_date', 'Échéance', dueAuto ? 'Calculée d’après les conditions de paiement.' : undefined, () => setDueAuto(false))}
          {dateInput('service_date', 'Date de la prestation ou de la livraison')}
        </div>
      </section>

      <section className="card">
        <h2>Conditions</h2>
        <div className="grid-2">
          {textArea('payment_terms', 'Conditions de paiement', 2, 'Par exemple « 30 jours fin de mois » ou « à réception ».')}
          {textInput('payment_method', 'Moyen de paiement', 'Virement, chèque, carte…')}
          {textArea('discount_terms', 'Conditions d’escompte')}
          <div className="field">
            <Field
              id="doc-payment_plan_kind"
              label="Échéancier"
              error={error('payment_plan_kind') ?? (form.payment_plan_kind === 'none' ? error('payment_plan_config') : undefined)}
            >
              <Select value={form.payment_plan_kind} onChange={(e) => set('payment_plan_kind', e.target.value as DraftForm['payment_plan_kind'])}>
                {Object.entries(PAYMENT_PLAN_LABELS).map(([v, label]) => (
                  <option key={v} value={v}>
                    {label}
                  </option>
                ))}
              </Select>
            </Field>
            {form.payment_plan_kind !== 'none' && (
              <Field
                id="doc-payment_plan_value"
                label={form.payment_plan_kind === 'installments' ? 'Nombre d’échéances' : 'Part de l’acompte (%)'}
                error={error('payment_plan_config')}
              >
                <QuantityInput value={form.payment_plan_value} onChange={(e) => set('payment_plan_value', e.target.value)} />
              </Field>
            )}
          </div>
          {type === 'devis' && textInput('deposit_request_percentage', 'Acompte demandé (%)', 'Mention du devis ; proposé par défaut pour la facture d’acompte.')}
          <Field id="doc-operation_nature" label="Nature de l’opération" error={error('operation_nature')}>
            <Select value={form.operation_nature} onChange={(e) => set('operation_nature', e.target.value as DraftForm['operation_nature'])}>
              <option value="">—</option>
              {Object.entries(OPERATION_NATURE_LABELS).map(([v, label]) => (
                <option key={v} value={v}>
                  {label}
                </option>
              ))}
            </Select>
          </Field>
          <Field id="doc-vat_exigibility" label="Exigibilité de la TVA" error={error('vat_exigibility')}>
            <Select value={form.vat_exigibility} onChange={(e) => set('vat_exigibility', e.target.value as DraftForm['vat_exigibility'])}>
              <option value="">—</option>
              {Object.entries(VAT_EXIGIBILITY_LABELS).map(([v, label]) => (
                <option key={v} value={v}>
                  {label}
                </option>
              ))}
            </Select>
          </Field>
          {textArea('execution_timeline', 'Délai d’exécution', 2, 'Par exemple « Travaux réalisés sous 3 semaines ».')}
        </div>
      </section>

      <section className="card">
        <h2>Textes</h2>
        <div className="stack">
          {textInput('title', 'Objet')}
          {textArea('description', 'Description', 3)}
          {textArea('notes', 'Notes imprimées sur le document', 3)}
        </div>
      </section>

      <details className="card" open={Boolean(form.delivery.address || Object.keys(errors).some((k) => k.startsWith('delivery_address')))}>
        <summary>
          <h2 style={{ display: 'inline' }}>Adresse de livraison</h2> <span className="muted">(si elle diffère de celle du client)</span>
        </summary>
        <div className="grid-2" style={{ marginTop: 12 }}>
          {(
            [
              ['name', 'Nom'],
              ['address', 'Adresse'],
              ['postal_code', 'Code postal'],
              ['city', 'Ville'],
              ['country', 'Pays (ISO)'],
            ] as const
          ).map(([key, label]) => {
            const name = `delivery_address.${key}`;
            return (
              <Field key={key} id={`doc-${name}`} label={label} error={error(name)}>
                <Input
                  value={form.delivery[key]}
                  placeholder={key === 'country' ? 'FR' : undefined}
                  onChange={(e) => setForm((f) => ({ ...f, delivery: { ...f.delivery, [key]: e.target.value } }))}
                />
              </Field>
            );
          })}
        </div>
        <FieldError id="doc-delivery_address-error" message={error('delivery_address')} />
      </details>

      <FormActions
        state={{ attempt: refusals, errors }}
        refused="Le brouillon n’a pas été enregistré : corrigez les champs signalés."
        placed={(key) => key !== '_form' && placed(key)}
      >
        <SubmitButton pending={pending} pendingLabel="Enregistrement…">
          {mode === 'create' ? 'Créer le brouillon' : 'Enregistrer le brouillon'}
        </SubmitButton>
        <LinkButton variant="ghost" href={cancelHref}>
          Annuler
        </LinkButton>
      </FormActions>
    </form>
  );
}
