'use client';

import { useActionState } from 'react';
import { Field, FormActions, Input, SubmitButton } from '@/components/ui';
import { ACCOUNT_RATES, type ExportSettings } from '@/lib/domain/exports/client';
import { initialFormState } from '@/lib/platform/next/client';
import { saveExportSettingsAction } from './actions';

type Name = keyof ExportSettings;
const FIELDS: Array<{ name: Name; label: string; hint?: string }> = [
  { name: 'client_account', label: 'Compte clients', hint: 'Débité du TTC de chaque facture (411000 par défaut), le client en compte auxiliaire.' },
  { name: 'journal_code', label: 'Code du journal des ventes', hint: 'VE par défaut.' },
  { name: 'journal_label', label: 'Libellé du journal des ventes', hint: 'Ventes par défaut.' },
  { name: 'bank_account', label: 'Compte de banque', hint: 'Débité de chaque paiement reçu (512000 par défaut).' },
  { name: 'bank_journal_code', label: 'Code du journal de banque', hint: 'BQ par défaut.' },
  { name: 'bank_journal_label', label: 'Libellé du journal de banque', hint: 'Banque par défaut.' },
];

/** Per VAT rate: the services (706) and goods (707) revenue accounts and the collected VAT account (4457). */
const RATE_ROWS: Array<{ label: string; services: Name; goods: Name; vat: Name }> = [
  ...ACCOUNT_RATES.map((r) => ({ label: `TVA ${r.label}`, services: `services_${r.key}`, goods: `goods_${r.key}`, vat: `vat_${r.key}` }) as const),
  { label: 'Autres taux, sans TVA', services: 'revenue_account', goods: 'goods_account', vat: 'vat_account' },
];

const PLACED = [...FIELDS.map((f) => f.name), ...RATE_ROWS.flatMap((r) => [r.services, r.goods, r.vat])];

/** The accounts and journals of the FEC; an admin's to change. */
export function AccountsForm({ values, readOnly }: { values: ExportSettings; readOnly: boolean }) {
  const [state, action] = useActionState(saveExportSettingsAction, initialFormState);
  const input = (name: Name, label: string, hint?: string) => (
    <Field key={name} id={`export-${name}`} label={label} hint={hint} error={state.errors?.[name]}>
      <Input name={name} defaultValue={state.texts?.[name] ?? values[name]} required readOnly={readOnly} autoComplete="off" />
    </Field>
  );
  return (
    // data-readable: shown to a read-only role too (the shell hides the other forms that post: globals.css).
    <form className="form" action={action} key={state.attempt} data-readable>
      <div className="grid-2">{FIELDS.map((f) => input(f.name, f.label, f.hint))}</div>
      <p className="hint">
        Les ventes vont au compte de leur nature — marchandises pour un document « biens », services sinon — et de leur taux de TVA ; la TVA au compte de son
        taux.
      </p>
      {RATE_ROWS.map((r) => (
        <fieldset key={r.label} className="grid-2">
          <legend>{r.label}</legend>
          {input(r.services, 'Services')}
          {input(r.goods, 'Marchandises')}
          {input(r.vat, 'TVA collectée')}
        </fieldset>
      ))}
      {!readOnly && (
        <FormActions state={state} refused="Les comptes n’ont pas été enregistrés : corrigez les champs signalés." placed={PLACED}>
          <SubmitButton pendingLabel="Enregistrement…">Enregistrer les comptes</SubmitButton>
        </FormActions>
      )}
    </form>
  );
}
