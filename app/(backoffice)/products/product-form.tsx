'use client';

import { useActionState } from 'react';
import { Field, FormActions, Input, LinkButton, MoneyInput, Select, SubmitButton, TextArea } from '@/components/ui';
import { formatRate } from '@/lib/platform/format';
import { type FormState, initialFormState } from '@/lib/platform/next/client';
import { VAT_RATES } from '../documents/labels';

/** The form's texts: name, description, unit, unit_price (euros as typed), vat_rate. */
export type ProductTexts = Partial<Record<'name' | 'description' | 'unit' | 'unit_price' | 'vat_rate', string>>;

interface Props {
  action: (prev: FormState, form: FormData) => Promise<FormState>;
  initial: ProductTexts;
  submitLabel: string;
}

/** Catalogue unit labels that become UN/ECE codes on a document line (others stay free text on the product). */
const UNIT_SUGGESTIONS = ['heure', 'jour', 'forfait', 'pièce', 'unité', 'semaine', 'mois', 'kg', 'm', 'm²', 'm³', 'l', 'km'];

/** The fields the form shows errors beside; any other is listed under the refusal, beside the button. */
const PLACED = ['name', 'description', 'unit_price_cents', 'unit', 'vat_rate'];

/** Create and edit form of a product; the server action validates with the API's schemas, messages beside the fields. */
export function ProductForm({ action, initial, submitLabel }: Props) {
  const [state, formAction] = useActionState(action, initialFormState);
  const texts: ProductTexts = state.texts ?? initial;
  const error = (key: string) => state.errors?.[key];
  const rates = texts.vat_rate && !VAT_RATES.includes(texts.vat_rate) ? [...VAT_RATES, texts.vat_rate] : VAT_RATES;

  return (
    <form className="form card" action={formAction} key={state.attempt} noValidate>
      <Field id="product-name" label="Nom" hint="Devient la désignation de la ligne." error={error('name')}>
        <Input name="name" defaultValue={texts.name} />
      </Field>
      <Field id="product-description" label="Description" hint="Imprimée sous la désignation." error={error('description')}>
        <TextArea name="description" rows={3} defaultValue={texts.description} />
      </Field>
      <div className="grid-2">
        <Field id="product-unit_price" label="Prix unitaire HT (€)" error={error('unit_price_cents')}>
          <MoneyInput name="unit_price" defaultValue={texts.unit_price} />
        </Field>
        <Field id="product-unit" label="Unité" hint="heure, jour, forfait, pièce…" error={error('unit')}>
          <Input name="unit" list="product-units" defaultValue={texts.unit} />
          <datalist id="product-units">
            {UNIT_SUGGESTIONS.map((u) => (
              <option key={u} value={u} />
            ))}
          </datalist>
        </Field>
        <Field id="product-vat_rate" label="Taux de TVA" error={error('vat_rate')}>
          <Select name="vat_rate" defaultValue={texts.vat_rate || '20.00'}>
            {rates.map((r) => (
              <option key={r} value={r}>
                {formatRate(r)}
              </option>
            ))}
          </Select>
        </Field>
      </div>
      <FormActions state={state} refused="Le produit n’a pas été enregistré : corrigez les champs signalés." placed={PLACED}>
        <SubmitButton pendingLabel="Enregistrement…">{submitLabel}</SubmitButton>
        <LinkButton variant="ghost" href="/products">
          Annuler
        </LinkButton>
      </FormActions>
    </form>
  );
}
