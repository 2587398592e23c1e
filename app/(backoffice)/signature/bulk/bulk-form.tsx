'use client';

import { useActionState } from 'react';
import { DataTable, Field, FormActions, Input, Select, StatusChip, SubmitButton, TextArea } from '@/components/ui';
import { type FormState, initialFormState } from '@/lib/platform/next/client';
import { type BulkPreview, bulkAction } from './actions';

const PLACED = ['csv', 'file', 'template_id', 'subject', 'message', 'verification_method'];

/**
 * The bulk send (works without JavaScript): « Prévisualiser » shows every row of the CSV with its problems and keeps
 * the PDF; « Envoyer » sends. What was typed and the CSV's text stay between the two.
 */
export function BulkForm({ templates }: { templates: Array<{ id: string; name: string }> }) {
  const [state, action] = useActionState(bulkAction, initialFormState as FormState<BulkPreview>);
  const texts = state.texts ?? {};
  const preview = state.data;
  const error = (name: string) => state.errors?.[name];
  const valid = preview ? preview.rows.filter((r) => r.errors.length === 0).length : 0;
  return (
    <form action={action} className="form" key={state.attempt} aria-label="Envoi groupé">
      <div className="grid-2">
        <Field id="bulk-file" style={{ minWidth: 0 }} label={preview?.document_name ? `Document à signer : ${preview.document_name} (ou un autre PDF)` : 'Document à signer (PDF)'} error={error('file')}>
          <input id="bulk-file" type="file" style={{ maxWidth: '100%' }} name="file" accept="application/pdf" />
        </Field>
        <Field id="bulk-csv-file" style={{ minWidth: 0 }} label="Destinataires (fichier CSV : e-mail, nom, téléphone)" error={error('csv')}>
          <input id="bulk-csv-file" type="file" style={{ maxWidth: '100%' }} name="csv_file" accept=".csv,text/csv" />
        </Field>
      </div>
      <input type="hidden" name="document_id" value={preview?.document_id ?? texts.document_id ?? ''} />
      <input type="hidden" name="document_name" value={preview?.document_name ?? texts.document_name ?? ''} />
      <Field id="bulk-csv" style={{ minWidth: 0 }} label="… ou le contenu du CSV" hint="Une ligne d’en-tête (email;nom;telephone), puis un destinataire par ligne. 100 au plus.">
        <TextArea name="csv" rows={5} defaultValue={preview?.csv ?? texts.csv} />
      </Field>
      <div className="grid-2">
        <Field id="bulk-template" style={{ minWidth: 0 }} label="Modèle" error={error('template_id')}>
          <Select style={{ width: '100%' }} name="template_id" defaultValue={texts.template_id ?? ''}>
            <option value="">Aucun</option>
            {templates.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </Select>
        </Field>
        <Field id="bulk-method" style={{ minWidth: 0 }} label="Vérification des signataires" error={error('verification_method')}>
          <Select style={{ width: '100%' }} name="verification_method" defaultValue={texts.verification_method ?? 'email_otp'}>
            <option value="email_otp">Code par e-mail</option>
            <option value="sms_otp">Code par SMS</option>
          </Select>
        </Field>
      </div>
      <Field id="bulk-subject" style={{ minWidth: 0 }} label="Objet de l’e-mail (sinon celui du modèle)" error={error('subject')}>
        <Input name="subject" maxLength={200} defaultValue={texts.subject} />
      </Field>
      <Field id="bulk-message" style={{ minWidth: 0 }} label="Message aux signataires (sinon celui du modèle)" error={error('message')}>
        <TextArea name="message" rows={3} defaultValue={texts.message} />
      </Field>

      {preview && (
        <section aria-labelledby="bulk-preview">
          <h3 id="bulk-preview">
            Aperçu : {valid} destinataire{valid > 1 ? 's' : ''} prêt{valid > 1 ? 's' : ''} sur {preview.rows.length}
          </h3>
          <DataTable
            label="Aperçu des destinataires"
            columns={[
              { key: 'ligne', header: 'Ligne', num: true, cell: (r) => r.line },
              { key: 'e_mail', header: 'E-mail', cell: (r) => r.email || <span className="muted">—</span> },
              { key: 'nom', header: 'Nom', cell: (r) => r.full_name || <span className="muted">—</span> },
              { key: 'telephone', header: 'Téléphone', cell: (r) => r.phone || <span className="muted">—</span> },
              {
                key: 'probleme',
                header: 'Problème',
                cell: (r) => r.errors.length ? <span className="field-error">{r.errors.join(' ')}</span> : <StatusChip tone="chip-green">Prêt</StatusChip>,
              },
            ]}
            rows={preview.rows}
            rowKey={(r) => r.line}
            rowProps={(r) => ({ 'data-invalid': r.errors.length > 0 ? 'true' : undefined })}
          />
          {valid < preview.rows.length && <p className="muted">Les lignes en erreur ne seront pas envoyées : corrigez le fichier puis prévisualisez à nouveau, ou envoyez les autres.</p>}
        </section>
      )}
      <FormActions state={state} refused="L’envoi groupé n’a pas été préparé : corrigez les champs signalés." placed={PLACED}>
        <SubmitButton name="intent" value="preview" variant="plain" pendingLabel="Lecture…">
          Prévisualiser
        </SubmitButton>
        {preview && valid > 0 && (
          <SubmitButton name="intent" value="send" pendingLabel="Envoi…">
            Envoyer à {valid} destinataire{valid > 1 ? 's' : ''}
          </SubmitButton>
        )}
      </FormActions>
    </form>
  );
}
