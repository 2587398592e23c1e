'use client';

import Link from 'next/link';
import { useActionState } from 'react';
import { formatRate } from '@/lib/format';
import { VAT_RATES } from '../documents/labels';
import type { ProductFormState, ProductTexts } from './actions';

interface Props {
  action: (prev: ProductFormState, form: FormData) => Promise<ProductFormState>;
  initial: ProductTexts;
  submitLabel: string;
}

/** Catalogue unit labels that become UN/ECE codes on a document line (others stay free text on the product). */
const UNIT_SUGGESTIONS = ['heure', 'jour', 'forfait', 'pièce', 'unité', 'semaine', 'mois', 'kg', 'm', 'm²', 'm³', 'l', 'km'];

/** Create and edit form of a product; the server action validates with the API's schemas, messages beside the fields. */
export function ProductForm({ action, initial, submitLabel }: Props) {
  const [state, formAction, pending] = useActionState<ProductFormState, FormData>(action, { attempt: 0 });
  const texts = state.texts ?? initial;
  const error = (key: string) => state.errors?.[key];
  const rates = texts.vat_rate && !VAT_RATES.includes(texts.vat_rate) ? [...VAT_RATES, texts.vat_rate] : VAT_RATES;
  const described = (key: string) => (error(key) ? { 'aria-invalid': true, 'aria-describedby': `product-${key}-error` } : {});
  const message = (key: string) =>
    error(key) && (
      <span className="field-error" id={`product-${key}-error`}>
        {error(key)}
      </span>
    );

  return (
    <form className="form card" action={formAction} key={state.attempt} noValidate>
      {state.errors && (
        <div className="form-error" role="alert">
          Le produit n’a pas été enregistré : corrigez les champs signalés.
          {state.errors._form && <div>{state.errors._form}</div>}
        </div>
      )}
      <div className="field" data-invalid={Boolean(error('name'))}>
        <label htmlFor="product-name">Nom</label>
        <input id="product-name" name="name" type="text" defaultValue={texts.name} {...described('name')} />
        <span className="hint">Devient la désignation de la ligne.</span>
        {message('name')}
      </div>
      <div className="field" data-invalid={Boolean(error('description'))}>
        <label htmlFor="product-description">Description</label>
        <textarea id="product-description" name="description" rows={3} defaultValue={texts.description} {...described('description')} />
        <span className="hint">Imprimée sous la désignation.</span>
        {message('description')}
      </div>
      <div className="grid-2">
        <div className="field" data-invalid={Boolean(error('unit_price_cents'))}>
          <label htmlFor="product-unit_price">Prix unitaire HT (€)</label>
          <input id="product-unit_price" name="unit_price" type="text" inputMode="decimal" defaultValue={texts.unit_price} {...described('unit_price_cents')} />
          {message('unit_price_cents')}
        </div>
        <div className="field" data-invalid={Boolean(error('unit'))}>
          <label htmlFor="product-unit">Unité</label>
          <input id="product-unit" name="unit" type="text" list="product-units" defaultValue={texts.unit} {...described('unit')} />
          <datalist id="product-units">
            {UNIT_SUGGESTIONS.map((u) => (
              <option key={u} value={u} />
            ))}
          </datalist>
          <span className="hint">heure, jour, forfait, pièce…</span>
          {message('unit')}
        </div>
        <div className="field" data-invalid={Boolean(error('vat_rate'))}>
          <label htmlFor="product-vat_rate">Taux de TVA</label>
          <select id="product-vat_rate" name="vat_rate" defaultValue={texts.vat_rate || '20.00'} {...described('vat_rate')}>
            {rates.map((r) => (
              <option key={r} value={r}>
                {formatRate(r)}
              </option>
            ))}
          </select>
          {message('vat_rate')}
        </div>
      </div>
      <div className="form-actions">
        <button className="btn btn-primary" type="submit" disabled={pending}>
          {pending ? 'Enregistrement…' : submitLabel}
        </button>
        <Link className="btn btn-ghost" href="/products">
          Annuler
        </Link>
      </div>
    </form>
  );
}
