'use client';

import Link from 'next/link';
import { startTransition, useActionState, useEffect, useMemo, useState } from 'react';
import type { DocumentType } from '@/db/schema/billing';
import { COMMON_UNITS } from '@/lib/billing/units';
import { formatMoney, formatRate } from '@/lib/format';
import { VAT_CATEGORIES } from '@/lib/money';
import { type ActionState, type ContactChoice, type SaveTarget, saveDocumentAction, searchContactsAction, searchProductsAction } from './actions';
import {
  type DraftForm,
  dueDateFor,
  emptyLine,
  errorAt,
  isBlankLine,
  isZeroRate,
  type LineDraft,
  lineErrors,
  lineFromProduct,
  liveTotals,
  moveLine,
  type ProductChoice,
  termsFor,
  toPayload,
  validityDateFor,
} from './editor-model';
import {
  OPERATION_NATURE_LABELS,
  PAYMENT_PLAN_LABELS,
  TYPE_LABELS,
  VAT_CATEGORY_LABELS,
  VAT_EXIGIBILITY_LABELS,
  VAT_RATES,
} from './labels';
import { SearchPicker } from './search-picker';

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
 * The draft editor: client, lines, dates and terms, with live totals from lib/money (the server's module). The
 * server action validates with the API's schemas and services; their messages come back beside their field.
 */
export function DocumentEditor({ target, type, initial, contact: initialContact, settings, cancelHref }: Props) {
  const mode = target.id ? 'update' : 'create';
  const [form, setForm] = useState<DraftForm>(initial);
  const [contact, setContact] = useState(initialContact);
  // The dates follow the issue date and the terms until they are typed by hand.
  const [dueAuto, setDueAuto] = useState(type === 'facture' && (!initial.due_date || initial.due_date === dueDateFor(initial.issue_date, initial.payment_terms)));
  const [validityAuto, setValidityAuto] = useState(
    type === 'devis' && (!initial.validity_date || initial.validity_date === validityDateFor(initial.issue_date, settings.default_validity_days)),
  );
  const [state, dispatch, pending] = useActionState<ActionState, { target: SaveTarget; payload: Record<string, unknown> }>(saveDocumentAction, {});
  const [errors, setErrors] = useState<Record<string, string>>({});
  useEffect(() => setErrors(state.errors ?? (state.error ? { _form: state.error } : {})), [state]);

  const live = useMemo(() => liveTotals(form.lines), [form.lines]);

  const set = <K extends keyof DraftForm>(key: K, value: DraftForm[K]) =>
    setForm((f) => {
      const next = { ...f, [key]: value };
      if (dueAuto && (key === 'issue_date' || key === 'payment_terms') && next.issue_date) next.due_date = dueDateFor(next.issue_date, next.payment_terms);
      if (validityAuto && key === 'issue_date' && next.issue_date) next.validity_date = validityDateFor(next.issue_date, settings.default_validity_days);
      return next;
    });
  const setLine = (index: number, change: Partial<LineDraft>) => setForm((f) => ({ ...f, lines: f.lines.map((l, i) => (i === index ? { ...l, ...change } : l)) }));
  // Moving or removing lines shifts their indexes: errors keyed items.N would point at the wrong line.
  const reshape = (lines: LineDraft[]) => {
    setForm((f) => ({ ...f, lines }));
    setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !k.startsWith('items'))));
  };

  const pickContact = (c: ContactChoice) => {
    setContact({ id: c.id, name: c.name });
    const terms = termsFor(c, settings);
    setForm((f) => {
      const next = { ...f, contact_id: c.id, ...terms };
      if (dueAuto && next.issue_date) next.due_date = dueDateFor(next.issue_date, next.payment_terms);
      return next;
    });
  };

  const pickProduct = (p: ProductChoice) =>
    setForm((f) => {
      // A blank last line is filled rather than left empty above the product.
      const last = f.lines.at(-1);
      const lines = last && isBlankLine(last) ? [...f.lines.slice(0, -1), lineFromProduct(p, last)] : [...f.lines, lineFromProduct(p)];
      return { ...f, lines };
    });

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const { payload, errors: local } = toPayload(form, mode);
    if (Object.keys(local).length) {
      setErrors(local);
      return;
    }
    startTransition(() => dispatch({ target, payload }));
  };

  const unplaced = Object.entries(errors).filter(([k]) => k === '_form' || !placed(k));
  const invalid = Object.keys(errors).length > 0;
  const field = (name: string) => ({ id: `doc-${name}`, 'aria-invalid': errorAt(errors, name) ? true : undefined, 'aria-describedby': errorAt(errors, name) ? `doc-${name}-error` : undefined });
  const err = (name: string) =>
    errorAt(errors, name) && (
      <span className="field-error" id={`doc-${name}-error`}>
        {errorAt(errors, name)}
      </span>
    );
  const textInput = (name: keyof DraftForm & string, label: string, hint?: string) => (
    <div className="field" data-invalid={Boolean(errorAt(errors, name))}>
      <label htmlFor={`doc-${name}`}>{label}</label>
      <input type="text" {...field(name)} value={form[name] as string} onChange={(e) => set(name, e.target.value as never)} />
      {hint && <span className="hint">{hint}</span>}
      {err(name)}
    </div>
  );
  const dateInput = (name: 'issue_date' | 'due_date' | 'validity_date' | 'service_date', label: string, hint?: string, onTyped?: () => void) => (
    <div className="field" data-invalid={Boolean(errorAt(errors, name))}>
      <label htmlFor={`doc-${name}`}>{label}</label>
      <input
        type="date"
        {...field(name)}
        value={form[name]}
        onChange={(e) => {
          onTyped?.();
          set(name, e.target.value);
        }}
      />
      {hint && <span className="hint">{hint}</span>}
      {err(name)}
    </div>
  );
  const textArea = (name: 'description' | 'notes' | 'payment_terms' | 'discount_terms' | 'execution_timeline', label: string, rows = 2, hint?: string) => (
    <div className="field" data-invalid={Boolean(errorAt(errors, name))}>
      <label htmlFor={`doc-${name}`}>{label}</label>
      <textarea {...field(name)} rows={rows} value={form[name]} onChange={(e) => set(name, e.target.value)} />
      {hint && <span className="hint">{hint}</span>}
      {err(name)}
    </div>
  );

  return (
    <form className="form" onSubmit={submit} noValidate aria-label={`Éditeur de ${TYPE_LABELS[type].toLowerCase()}`}>
      {invalid && (
        <div className="form-error" role="alert">
          Le brouillon n’a pas été enregistré : corrigez les champs signalés.
          {unplaced.map(([key, message]) => (
            <div key={key}>{key === '_form' ? message : `${key}: ${message}`}</div>
          ))}
        </div>
      )}

      <section className="card">
        <h2>Client</h2>
        <div className="field" data-invalid={Boolean(errorAt(errors, 'contact_id'))}>
          {contact ? (
            <div className="toolbar">
              <strong data-testid="editor-contact">{contact.name}</strong>
              <button type="button" className="btn btn-sm" onClick={() => setContact(null)}>
                Changer de client
              </button>
            </div>
          ) : (
            <SearchPicker<ContactChoice>
              label="Client"
              placeholder="Rechercher un contact (nom, société, e-mail)"
              inputId="doc-contact_id"
              search={searchContactsAction}
              onPick={pickContact}
              emptyText="Aucun contact ne correspond."
              invalid={Boolean(errorAt(errors, 'contact_id'))}
              describedBy={errorAt(errors, 'contact_id') ? 'doc-contact_id-error' : undefined}
              renderOption={(c) => (
                <>
                  <strong>{c.name}</strong>
                  {c.detail && <span className="muted"> · {c.detail}</span>}
                </>
              )}
            />
          )}
          <span className="hint">Ses conditions de paiement et d’escompte par défaut s’appliquent au document.</span>
          {err('contact_id')}
        </div>
      </section>

      <section className="card">
        <h2>Lignes</h2>
        {errorAt(errors, 'items') && (
          <p className="field-error" id="doc-items-error" role="alert">
            {errorAt(errors, 'items')}
          </p>
        )}
        <table className="table lines">
          <colgroup>
            <col />
            <col style={{ width: 96 }} />
            <col style={{ width: 104 }} />
            <col style={{ width: 130 }} />
            <col style={{ width: 150 }} />
            <col style={{ width: 112 }} />
            <col style={{ width: 108 }} />
          </colgroup>
          <thead>
            <tr>
              <th>Désignation</th>
              <th className="num">Quantité</th>
              <th>Unité</th>
              <th className="num">Prix unitaire HT</th>
              <th>TVA</th>
              <th className="num">Total HT</th>
              <th>
                <span className="sr-only">Ordre et suppression</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {form.lines.map((line, i) => (
              <LineRow
                key={line.key}
                line={line}
                index={i}
                count={form.lines.length}
                total={live.lines[i] ?? null}
                errors={lineErrors(errors, i)}
                onChange={(change) => setLine(i, change)}
                onMove={(delta) => reshape(moveLine(form.lines, i, delta))}
                onRemove={() => reshape(form.lines.filter((_, j) => j !== i))}
              />
            ))}
          </tbody>
        </table>
        <div className="toolbar" style={{ marginTop: 12 }}>
          <button type="button" className="btn btn-sm" onClick={() => setForm((f) => ({ ...f, lines: [...f.lines, emptyLine('product', f.lines.at(-1)?.vat_rate)] }))}>
            Ajouter une ligne
          </button>
          <button type="button" className="btn btn-sm" onClick={() => setForm((f) => ({ ...f, lines: [...f.lines, emptyLine('discount', f.lines.at(-1)?.vat_rate)] }))}>
            Ajouter une remise
          </button>
          <SearchPicker<ProductChoice>
            label="Ajouter un produit du catalogue"
            placeholder="Ajouter un produit du catalogue…"
            search={searchProductsAction}
            onPick={pickProduct}
            emptyText="Aucun produit ne correspond."
            renderOption={(p) => (
              <>
                <strong>{p.name}</strong>{' '}
                <span className="muted">
                  · {formatMoney(p.unit_price_cents)} HT · TVA {formatRate(p.vat_rate)}
                </span>
              </>
            )}
          />
        </div>

        <div data-testid="editor-totals" aria-live="polite">
          {live.totals ? (
            <dl className="totals">
              <dt>Total HT</dt>
              <dd data-testid="editor-total-ht">{formatMoney(live.totals.total_ht)}</dd>
              {live.totals.groups.map((g) => (
                <GroupRow key={`${g.vat_category}|${g.vat_rate}`} group={g} />
              ))}
              <dt>Total TVA</dt>
              <dd data-testid="editor-total-tva">{formatMoney(live.totals.total_tva)}</dd>
              <dt className="grand">Total TTC</dt>
              <dd className="grand" data-testid="editor-total-ttc">
                {formatMoney(live.totals.total_ttc)}
              </dd>
            </dl>
          ) : (
            <p className="field-error">Un montant dépasse ce qu’un document peut porter.</p>
          )}
        </div>
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
          <div className="field" data-invalid={Boolean(errorAt(errors, 'payment_plan_kind') || errorAt(errors, 'payment_plan_config'))}>
            <label htmlFor="doc-payment_plan_kind">Échéancier</label>
            <select
              {...field('payment_plan_kind')}
              value={form.payment_plan_kind}
              onChange={(e) => set('payment_plan_kind', e.target.value as DraftForm['payment_plan_kind'])}
            >
              {Object.entries(PAYMENT_PLAN_LABELS).map(([v, label]) => (
                <option key={v} value={v}>
                  {label}
                </option>
              ))}
            </select>
            {form.payment_plan_kind !== 'none' && (
              <>
                <label htmlFor="doc-payment_plan_value">{form.payment_plan_kind === 'installments' ? 'Nombre d’échéances' : 'Part de l’acompte (%)'}</label>
                <input
                  id="doc-payment_plan_value"
                  type="text"
                  inputMode="decimal"
                  aria-invalid={errorAt(errors, 'payment_plan_config') ? true : undefined}
                  aria-describedby={errorAt(errors, 'payment_plan_config') ? 'doc-payment_plan_config-error' : undefined}
                  value={form.payment_plan_value}
                  onChange={(e) => set('payment_plan_value', e.target.value)}
                />
              </>
            )}
            {err('payment_plan_kind')}
            {err('payment_plan_config')}
          </div>
          {type === 'devis' && textInput('deposit_request_percentage', 'Acompte demandé (%)', 'Mention du devis ; proposé par défaut pour la facture d’acompte.')}
          <div className="field" data-invalid={Boolean(errorAt(errors, 'operation_nature'))}>
            <label htmlFor="doc-operation_nature">Nature de l’opération</label>
            <select {...field('operation_nature')} value={form.operation_nature} onChange={(e) => set('operation_nature', e.target.value as DraftForm['operation_nature'])}>
              <option value="">—</option>
              {Object.entries(OPERATION_NATURE_LABELS).map(([v, label]) => (
                <option key={v} value={v}>
                  {label}
                </option>
              ))}
            </select>
            {err('operation_nature')}
          </div>
          <div className="field" data-invalid={Boolean(errorAt(errors, 'vat_exigibility'))}>
            <label htmlFor="doc-vat_exigibility">Exigibilité de la TVA</label>
            <select {...field('vat_exigibility')} value={form.vat_exigibility} onChange={(e) => set('vat_exigibility', e.target.value as DraftForm['vat_exigibility'])}>
              <option value="">—</option>
              {Object.entries(VAT_EXIGIBILITY_LABELS).map(([v, label]) => (
                <option key={v} value={v}>
                  {label}
                </option>
              ))}
            </select>
            {err('vat_exigibility')}
          </div>
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
              <div className="field" key={key} data-invalid={Boolean(errorAt(errors, name))}>
                <label htmlFor={`doc-${name}`}>{label}</label>
                <input
                  type="text"
                  {...field(name)}
                  value={form.delivery[key]}
                  placeholder={key === 'country' ? 'FR' : undefined}
                  onChange={(e) => setForm((f) => ({ ...f, delivery: { ...f.delivery, [key]: e.target.value } }))}
                />
                {err(name)}
              </div>
            );
          })}
        </div>
        {err('delivery_address')}
      </details>

      <div className="form-actions">
        <button className="btn btn-primary" type="submit" disabled={pending}>
          {pending ? 'Enregistrement…' : mode === 'create' ? 'Créer le brouillon' : 'Enregistrer le brouillon'}
        </button>
        <Link className="btn btn-ghost" href={cancelHref}>
          Annuler
        </Link>
      </div>
    </form>
  );
}

function GroupRow({ group }: { group: { vat_category: string; vat_rate: string; base: number; vat: number } }) {
  const label =
    group.vat_category === 'S'
      ? `TVA ${formatRate(group.vat_rate)} sur ${formatMoney(group.base)}`
      : `${VAT_CATEGORY_LABELS[group.vat_category as keyof typeof VAT_CATEGORY_LABELS]} (${formatRate(group.vat_rate)}) sur ${formatMoney(group.base)}`;
  return (
    <>
      <dt className="muted">{label}</dt>
      <dd className="muted">{formatMoney(group.vat)}</dd>
    </>
  );
}

interface LineProps {
  line: LineDraft;
  index: number;
  count: number;
  total: number | null;
  errors: Record<string, string>;
  onChange: (change: Partial<LineDraft>) => void;
  onMove: (delta: number) => void;
  onRemove: () => void;
}

function LineRow({ line, index, count, total, errors, onChange, onMove, onRemove }: LineProps) {
  const n = index + 1;
  const discount = line.kind === 'discount';
  const id = (key: string) => `doc-items.${index}.${key}`;
  const attrs = (key: string) => ({
    id: id(key),
    'aria-invalid': errors[key] ? true : undefined,
    'aria-describedby': errors[key] ? `${id(key)}-error` : undefined,
  });
  const error = (key: string) =>
    errors[key] && (
      <span className="field-error" id={`${id(key)}-error`}>
        {errors[key]}
      </span>
    );
  const rates = VAT_RATES.includes(line.vat_rate) ? VAT_RATES : [...VAT_RATES, line.vat_rate];
  const units = !line.unit || COMMON_UNITS.some((u) => u.code === line.unit) ? COMMON_UNITS : [...COMMON_UNITS, { code: line.unit, label: line.unit }];
  const zero = isZeroRate(line.vat_rate);

  return (
    <tr data-testid={`line-${index}`} className={discount ? 'discount' : undefined}>
      <td>
        <div className="field" data-invalid={Boolean(errors.description || errors.product_id)}>
          {discount && (
            <span className="chip chip-amber" style={{ alignSelf: 'flex-start' }}>
              remise
            </span>
          )}
          <input type="text" aria-label={`Désignation de la ligne ${n}`} {...attrs('description')} value={line.description} onChange={(e) => onChange({ description: e.target.value })} />
          <textarea
            aria-label={`Détails de la ligne ${n}`}
            placeholder="Détails (facultatif)"
            rows={1}
            value={line.details}
            onChange={(e) => onChange({ details: e.target.value })}
          />
          {error('description')}
          {error('details')}
          {error('product_id')}
        </div>
      </td>
      <td className="num">
        <div className="field" data-invalid={Boolean(errors.quantity)}>
          {discount ? (
            <span className="muted">—</span>
          ) : (
            <input type="text" inputMode="decimal" className="num" aria-label={`Quantité de la ligne ${n}`} {...attrs('quantity')} value={line.quantity} onChange={(e) => onChange({ quantity: e.target.value })} />
          )}
          {error('quantity')}
        </div>
      </td>
      <td>
        <div className="field" data-invalid={Boolean(errors.unit)}>
          {discount ? (
            <span className="muted">—</span>
          ) : (
            <select aria-label={`Unité de la ligne ${n}`} {...attrs('unit')} value={line.unit} onChange={(e) => onChange({ unit: e.target.value })}>
              <option value="">—</option>
              {units.map((u) => (
                <option key={u.code} value={u.code}>
                  {u.label}
                </option>
              ))}
            </select>
          )}
          {error('unit')}
        </div>
      </td>
      <td className="num">
        <div className="field" data-invalid={Boolean(errors.unit_price)}>
          <input
            type="text"
            inputMode="decimal"
            className="num"
            aria-label={discount ? `Montant de la remise de la ligne ${n}` : `Prix unitaire HT de la ligne ${n}`}
            {...attrs('unit_price')}
            value={line.unit_price}
            onChange={(e) => onChange({ unit_price: e.target.value })}
          />
          {error('unit_price')}
        </div>
      </td>
      <td>
        <div className="field" data-invalid={Boolean(errors.vat_rate || errors.vat_category)}>
          <select aria-label={`Taux de TVA de la ligne ${n}`} {...attrs('vat_rate')} value={line.vat_rate} onChange={(e) => onChange({ vat_rate: e.target.value, vat_category: '' })}>
            {rates.map((r) => (
              <option key={r} value={r}>
                {formatRate(r)}
              </option>
            ))}
          </select>
          {(zero || (line.vat_category && line.vat_category !== 'S')) && (
            <select
              aria-label={`Catégorie de TVA de la ligne ${n}`}
              {...attrs('vat_category')}
              value={line.vat_category || (zero ? 'E' : 'S')}
              onChange={(e) => onChange({ vat_category: e.target.value as LineDraft['vat_category'] })}
            >
              {VAT_CATEGORIES.filter((c) => (zero ? c !== 'S' : true)).map((c) => (
                <option key={c} value={c}>
                  {VAT_CATEGORY_LABELS[c]}
                </option>
              ))}
            </select>
          )}
          {error('vat_rate')}
          {error('vat_category')}
        </div>
      </td>
      <td className="num" data-testid={`line-${index}-total`}>
        {total === null ? <span className="muted">—</span> : formatMoney(total)}
      </td>
      <td className="line-tools">
        <button type="button" className="btn btn-ghost btn-sm" aria-label={`Monter la ligne ${n}`} disabled={index === 0} onClick={() => onMove(-1)}>
          ↑
        </button>
        <button type="button" className="btn btn-ghost btn-sm" aria-label={`Descendre la ligne ${n}`} disabled={index === count - 1} onClick={() => onMove(1)}>
          ↓
        </button>
        <button type="button" className="btn btn-ghost btn-sm" aria-label={`Supprimer la ligne ${n}`} onClick={onRemove}>
          ✕
        </button>
      </td>
    </tr>
  );
}
