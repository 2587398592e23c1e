'use client';

import { startTransition, useActionState, useEffect, useRef, useState } from 'react';
import { EmailSuggestionHint } from '@/components/contacts/email-suggestion';
import { Button, Field, FormActions, Input, LinkButton, Select, StatusChip, SubmitButton, TextArea, useFieldControl } from '@/components/ui';
import { type BoundFormAction, initialFormState } from '@/lib/platform/next/client';
import { frenchFieldMessage } from '@/lib/platform/i18n';
import { SearchPicker } from '../documents/search-picker';
import { createEnvelopeAction, type SourceChoice, searchSourcesAction } from './actions';
import { type EnvelopeForm, newSigner, type SignerDraft, toEnvelopePayload, toPatchPayload } from './editor-model';
import { SOURCE_LABELS, VERIFICATION_LABELS, type VerificationMethod } from './labels';

interface Props {
  initial: EnvelopeForm;
  /** The org's templates, for the presets select. */
  templates: Array<{ id: string; name: string }>;
  /** The quote or invoice chosen before (?source=…), with its name. */
  source: SourceChoice | null;
  /** Editing a draft: its PATCH action, bound to it on the server; the source, routing and level stay as they are. */
  edit?: { action: BoundFormAction; cancelHref: string };
}

const PLACED = [
  'file',
  'source_document_id',
  'template_id',
  'subject',
  'message',
  'labels',
  'cc_recipients',
  'expires_at',
  'routing_mode',
  'assurance_level',
  'reminder_interval_hours',
  'reminder_max_count',
  'signers',
];
const placed = (key: string) => PLACED.some((p) => key === p || key.startsWith(`${p}.`));

/** The PDF input, wired to its Field (label, hint, error); read at submit through its ref. */
function FileInput({ inputRef }: { inputRef: React.RefObject<HTMLInputElement | null> }) {
  return <input ref={inputRef} type="file" name="file" accept="application/pdf,.pdf" {...useFieldControl()} />;
}

/**
 * The new envelope's editor: the document (a PDF uploaded, or a finalized quote or invoice), the request e-mail, the
 * signers and their order, then "Créer le brouillon": its page places the fields, adds approvers and sends.
 */
export function EnvelopeEditor({ initial, templates, source: initialSource, edit }: Props) {
  const [form, setForm] = useState<EnvelopeForm>(initial);
  const [source, setSource] = useState<SourceChoice | null>(initialSource);
  const file = useRef<HTMLInputElement>(null);
  const [state, dispatch, pending] = useActionState(edit?.action ?? createEnvelopeAction, initialFormState);
  const [errors, setErrors] = useState<Record<string, string>>({});
  // Each refusal, the browser's or the server's, is a new attempt: FormActions then focuses the first field in error.
  const [refusals, setRefusals] = useState(0);
  const refuse = (found: Record<string, string>) => {
    setErrors(found);
    if (Object.keys(found).length) setRefusals((n) => n + 1);
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: refuse only sets state; the answer is what changes.
  useEffect(() => refuse(state.errors ?? (state.error ? { _form: state.error } : {})), [state]);

  const set = <K extends keyof EnvelopeForm>(key: K, value: EnvelopeForm[K]) => setForm((f) => ({ ...f, [key]: value }));
  const setSigner = (i: number, change: Partial<SignerDraft>) => setForm((f) => ({ ...f, signers: f.signers.map((s, j) => (j === i ? { ...s, ...change } : s)) }));
  const error = (name: string) => errors[name];
  const sequential = form.routing_mode === 'sequential';

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const chosen = file.current?.files?.[0];
    if (edit) {
      const data = new FormData();
      data.set('payload', JSON.stringify(toPatchPayload(form)));
      startTransition(() => dispatch(data));
      return;
    }
    const { payload, errors: local } = toEnvelopePayload(form, { hasFile: Boolean(chosen) });
    if (Object.keys(local).length) {
      refuse(Object.fromEntries(Object.entries(local).map(([k, m]) => [k, frenchFieldMessage(k, m)])));
      return;
    }
    const data = new FormData();
    data.set('payload', JSON.stringify(payload));
    if (form.source_kind === 'document' && chosen) data.set('file', chosen);
    startTransition(() => dispatch(data));
  };

  return (
    <form className="form" onSubmit={submit} noValidate aria-label={edit ? 'Modifier le brouillon' : 'Nouvelle enveloppe'}>
      {!edit && (
      <section className="card">
        <h2>Document à signer</h2>
        <Field id="env-source_kind" label="Source" error={error('source_kind')}>
          <Select value={form.source_kind} onChange={(e) => set('source_kind', e.target.value as EnvelopeForm['source_kind'])}>
            <option value="document">Un PDF à importer</option>
            <option value="devis">Un devis finalisé</option>
            <option value="facture">Une facture finalisée</option>
          </Select>
        </Field>
        {form.source_kind === 'document' ? (
          <Field id="env-file" label="Fichier PDF" hint="20 Mo au plus, non protégé par un mot de passe." error={error('file')}>
            <FileInput inputRef={file} />
          </Field>
        ) : (
          <Field
            id="env-source_document_id"
            label={`${SOURCE_LABELS[form.source_kind]} à faire signer`}
            hint="Son PDF est figé à l’envoi ; son client devient celui de l’enveloppe."
            error={error('source_document_id')}
          >
            {source && form.source_document_id === source.id ? (
              <StatusChip tone="chip-blue">
                {source.name}{' '}
                <button type="button" className="chip-remove" aria-label={`Changer de document (${source.name})`} onClick={() => set('source_document_id', '')}>
                  ✕
                </button>
              </StatusChip>
            ) : (
              <SearchPicker<SourceChoice>
                label={`Rechercher ${form.source_kind === 'devis' ? 'un devis' : 'une facture'}`}
                placeholder="Numéro, objet ou client"
                search={(q) => searchSourcesAction(form.source_kind === 'devis' ? 'devis' : 'facture', q)}
                onPick={(c) => {
                  setSource(c);
                  set('source_document_id', c.id);
                }}
                renderOption={(c) => (
                  <>
                    {c.name}
                    <span className="muted"> {c.detail}</span>
                  </>
                )}
                emptyText="Aucun document finalisé ne correspond."
              />
            )}
          </Field>
        )}
      </section>
      )}

      <section className="card">
        <h2>Demande de signature</h2>
        {!edit && templates.length > 0 && (
          <Field id="env-template_id" label="Modèle" hint="Remplit l’objet, le message, les étiquettes et les copies laissés vides." error={error('template_id')}>
            <Select value={form.template_id} onChange={(e) => set('template_id', e.target.value)}>
              <option value="">Aucun</option>
              {templates.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </Select>
          </Field>
        )}
        <Field id="env-subject" label="Objet de l’e-mail" error={error('subject')}>
          <Input value={form.subject} onChange={(e) => set('subject', e.target.value)} />
        </Field>
        <Field id="env-message" label="Message aux signataires" error={error('message')}>
          <TextArea rows={3} value={form.message} onChange={(e) => set('message', e.target.value)} />
        </Field>
        <div className="grid-2">
          <Field id="env-labels" label="Étiquettes" hint="Séparées par des virgules." error={error('labels')}>
            <Input value={form.labels} onChange={(e) => set('labels', e.target.value)} />
          </Field>
          <Field id="env-cc_recipients" label="En copie de la notification de fin" hint="Adresses séparées par des virgules." error={error('cc_recipients')}>
            <Input value={form.cc_recipients} onChange={(e) => set('cc_recipients', e.target.value)} />
          </Field>
          <Field id="env-expires_at" label="Expire le" hint="Jusqu’à 23 h 59, heure de Paris, ce jour-là. Vide : 30 jours après l’envoi, jusqu’à 23 h 59." error={error('expires_at')}>
            <Input type="date" value={form.expires_on} onChange={(e) => set('expires_on', e.target.value)} />
          </Field>
          {!edit && (
            <Field id="env-assurance_level" label="Niveau de signature" error={error('assurance_level')}>
              <Select value={form.assurance_level} onChange={(e) => set('assurance_level', e.target.value as EnvelopeForm['assurance_level'])}>
                <option value="simple">Simple</option>
                <option value="advanced">Avancée (code obligatoire)</option>
              </Select>
            </Field>
          )}
          <Field id="env-reminder_interval_hours" label="Relance automatique toutes les (heures)" hint="Vide : 48 heures." error={error('reminder_interval_hours')}>
            <Input inputMode="numeric" value={form.reminder_interval_hours} onChange={(e) => set('reminder_interval_hours', e.target.value)} />
          </Field>
          <Field id="env-reminder_max_count" label="Nombre de relances au plus" error={error('reminder_max_count')}>
            <Input inputMode="numeric" value={form.reminder_max_count} onChange={(e) => set('reminder_max_count', e.target.value)} />
          </Field>
        </div>
      </section>

      <section className="card">
        <h2>Signataires</h2>
        {edit ? (
          <p className="muted">{sequential ? 'Signature à la suite, par ordre croissant.' : 'Signature en parallèle.'} Les champs placés pour les signataires sont à replacer après modification.</p>
        ) : (
        <Field
          id="env-routing_mode"
          label="Ordre de signature"
          hint={sequential ? 'Chacun reçoit l’invitation à son tour, par ordre croissant ; un même ordre signe en parallèle.' : 'Tous reçoivent l’invitation en même temps.'}
          error={error('routing_mode')}
        >
          <Select value={form.routing_mode} onChange={(e) => set('routing_mode', e.target.value as EnvelopeForm['routing_mode'])}>
            <option value="sequential">À la suite</option>
            <option value="parallel">En parallèle</option>
          </Select>
        </Field>
        )}
        {error('signers') && (
          <p className="form-error" role="alert">
            {error('signers')}
          </p>
        )}
        {form.signers.map((s, i) => (
          <fieldset key={s.key} className="card" style={{ minWidth: 0 }}>
            <legend>Signataire {i + 1}</legend>
            <div className="grid-2">
              <Field id={`env-signers-${i}-full_name`} label="Nom" error={error(`signers.${i}.full_name`)}>
                <Input autoComplete="off" value={s.full_name} onChange={(e) => setSigner(i, { full_name: e.target.value })} />
              </Field>
              <Field id={`env-signers-${i}-email`} label="E-mail" error={error(`signers.${i}.email`)}>
                <Input type="email" autoComplete="off" value={s.email} onChange={(e) => setSigner(i, { email: e.target.value })} />
                <EmailSuggestionHint email={s.email} onAccept={(email) => setSigner(i, { email })} />
              </Field>
              <Field id={`env-signers-${i}-verification_method`} label="Vérification" error={error(`signers.${i}.verification_method`)}>
                <Select value={s.verification_method} onChange={(e) => setSigner(i, { verification_method: e.target.value as VerificationMethod })}>
                  {Object.entries(VERIFICATION_LABELS).map(([v, label]) => (
                    <option key={v} value={v}>
                      {label}
                    </option>
                  ))}
                </Select>
              </Field>
              <Field id={`env-signers-${i}-phone`} label="Téléphone" hint="Format international : +33612345678. Requis pour le code par SMS." error={error(`signers.${i}.phone`)}>
                <Input type="tel" value={s.phone} onChange={(e) => setSigner(i, { phone: e.target.value })} />
              </Field>
              {sequential && (
                <Field id={`env-signers-${i}-routing_order`} label="Ordre" error={error(`signers.${i}.routing_order`)}>
                  <Input inputMode="numeric" value={s.routing_order} onChange={(e) => setSigner(i, { routing_order: e.target.value })} />
                </Field>
              )}
            </div>
            {form.signers.length > 1 && (
              <Button variant="ghost" onClick={() => set('signers', form.signers.filter((_, j) => j !== i))}>
                Retirer le signataire {i + 1}
              </Button>
            )}
          </fieldset>
        ))}
        <Button onClick={() => set('signers', [...form.signers, newSigner(form.signers.length + 1)])}>
          Ajouter un signataire
        </Button>
      </section>

      <FormActions
        state={{ attempt: refusals, errors, done: state.done }}
        refused={edit ? 'Le brouillon n’a pas été modifié : corrigez les champs signalés.' : 'L’enveloppe n’a pas été créée : corrigez les champs signalés.'}
        placed={(key) => key !== '_form' && placed(key)}
      >
        <SubmitButton pending={pending} pendingLabel={edit ? 'Enregistrement…' : 'Création…'}>
          {edit ? 'Enregistrer le brouillon' : 'Créer le brouillon'}
        </SubmitButton>
        <LinkButton variant="ghost" href={edit?.cancelHref ?? '/signature'}>
          Annuler
        </LinkButton>
      </FormActions>
    </form>
  );
}
