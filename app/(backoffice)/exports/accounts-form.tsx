'use client';

import { useActionState } from 'react';
import { Field, FormErrors, Input, SubmitButton } from '@/components/ui';
import type { ExportSettings } from '@/lib/domain/exports';
import { initialFormState } from '@/lib/platform/next/client';
import { saveExportSettingsAction } from './actions';

const FIELDS: Array<{ name: keyof ExportSettings; label: string; hint: string }> = [
  { name: 'client_account', label: 'Compte clients', hint: 'Débité du TTC de chaque facture (411000 par défaut), le client en compte auxiliaire.' },
  { name: 'revenue_account', label: 'Compte de ventes', hint: 'Crédité du HT, une ligne par taux de TVA (706000 par défaut).' },
  { name: 'vat_account', label: 'Compte de TVA collectée', hint: 'Crédité de la TVA, une ligne par taux (445710 par défaut).' },
  { name: 'journal_code', label: 'Code du journal', hint: 'VE par défaut.' },
  { name: 'journal_label', label: 'Libellé du journal', hint: 'Ventes par défaut.' },
];

/** The accounts and journal of the FEC; an admin's to change. */
export function AccountsForm({ values, readOnly }: { values: ExportSettings; readOnly: boolean }) {
  const [state, action] = useActionState(saveExportSettingsAction, initialFormState);
  return (
    <form className="form" action={action} key={state.attempt}>
      {state.done && <div className="notice notice-success">{state.done}</div>}
      <FormErrors state={state} placed={FIELDS.map((f) => f.name)} />
      <div className="grid-2">
        {FIELDS.map((f) => (
          <Field key={f.name} id={`export-${f.name}`} label={f.label} hint={f.hint} error={state.errors?.[f.name]}>
            <Input name={f.name} defaultValue={state.texts?.[f.name] ?? values[f.name]} required readOnly={readOnly} autoComplete="off" />
          </Field>
        ))}
      </div>
      {!readOnly && (
        <div className="form-actions">
          <SubmitButton pendingLabel="Enregistrement…">Enregistrer les comptes</SubmitButton>
        </div>
      )}
    </form>
  );
}
