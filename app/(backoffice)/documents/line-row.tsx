'use client';

import { Button, Field, FieldError, Input, MoneyInput, QuantityInput, Select, StatusChip } from '@/components/ui';
import { COMMON_UNITS } from '@/lib/domain/documents/client';
import { formatMoney, formatMoneyInput, formatRate } from '@/lib/platform/format';
import { VAT_CATEGORIES, VAT_EXEMPTION_REASONS } from '@/lib/platform/money';
import { isPercentDiscount, isZeroRate, type LineDraft } from './editor-model';
import { VAT_CATEGORY_LABELS, VAT_RATES } from './labels';

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

/** One line of the editor's table: each cell a field named by its aria-label, its error under it. */
export function LineRow({ line, index, count, total, errors, onChange, onMove, onRemove }: LineProps) {
  const n = index + 1;
  const discount = line.kind === 'discount';
  // A discount typed as a percentage shows the amount computed from it, not editable.
  const percent = isPercentDiscount(line);
  // The server names a line's fields items.N.key: the error ids follow (doc-items.2.vat_rate-error).
  const id = (key: string) => `doc-items.${index}.${key}`;
  const rates = VAT_RATES.includes(line.vat_rate) ? VAT_RATES : [...VAT_RATES, line.vat_rate];
  const units = !line.unit || COMMON_UNITS.some((u) => u.code === line.unit) ? COMMON_UNITS : [...COMMON_UNITS, { code: line.unit, label: line.unit }];
  const zero = isZeroRate(line.vat_rate);
  // The exemption reasons of the line's category (E: the franchise or an article of the CGI; AE: EU or French reverse charge).
  const category = line.vat_category || (zero ? 'E' : 'S');
  const reasons = zero && (category === 'E' || category === 'AE') ? VAT_EXEMPTION_REASONS.filter((r) => r.category === category) : [];

  return (
    <tr data-testid={`line-${index}`} className={discount ? 'discount' : undefined}>
      <td data-label="Désignation">
        <Field id={id('description')} error={errors.description}>
          {discount && (
            <StatusChip tone="chip-amber" style={{ alignSelf: 'flex-start' }}>
              remise
            </StatusChip>
          )}
          <Input aria-label={`Désignation de la ligne ${n}`} value={line.description} onChange={(e) => onChange({ description: e.target.value })} />
          <textarea
            aria-label={`Détails de la ligne ${n}`}
            placeholder="Détails (facultatif)"
            rows={1}
            value={line.details}
            onChange={(e) => onChange({ details: e.target.value })}
          />
          <FieldError id={`${id('details')}-error`} message={errors.details} />
          <FieldError id={`${id('product_id')}-error`} message={errors.product_id} />
        </Field>
      </td>
      <td data-label="Quantité" className="num">
        <Field id={id('quantity')} error={errors.quantity}>
          {discount ? (
            // A discount has no quantity: this cell takes its percentage, the amount then computed (editor-values.ts).
            <span style={{ display: 'flex', alignItems: 'center', gap: 4 }}>
              <QuantityInput
                className="num"
                aria-label={`Pourcentage de la remise de la ligne ${n}`}
                placeholder="%"
                value={line.discount_percent ?? ''}
                onChange={(e) => onChange({ discount_percent: e.target.value })}
              />
              <span aria-hidden="true">%</span>
            </span>
          ) : (
            <QuantityInput className="num" aria-label={`Quantité de la ligne ${n}`} value={line.quantity} onChange={(e) => onChange({ quantity: e.target.value })} />
          )}
        </Field>
      </td>
      <td data-label="Unité">
        <Field id={id('unit')} error={errors.unit}>
          {discount ? (
            <span className="muted">—</span>
          ) : (
            <Select aria-label={`Unité de la ligne ${n}`} value={line.unit} onChange={(e) => onChange({ unit: e.target.value })}>
              <option value="">—</option>
              {units.map((u) => (
                <option key={u.code} value={u.code}>
                  {u.label}
                </option>
              ))}
            </Select>
          )}
        </Field>
      </td>
      <td data-label="Prix unitaire HT" className="num">
        <Field id={id('unit_price')} error={errors.unit_price}>
          <MoneyInput
            className="num"
            aria-label={discount ? `Montant de la remise de la ligne ${n}` : `Prix unitaire HT de la ligne ${n}`}
            value={percent ? (total === null ? '' : formatMoneyInput(-total)) : line.unit_price}
            readOnly={percent}
            onChange={(e) => onChange({ unit_price: e.target.value })}
          />
        </Field>
      </td>
      <td data-label="TVA">
        <div className="field">
          <Field id={id('vat_rate')} error={errors.vat_rate}>
            <Select aria-label={`Taux de TVA de la ligne ${n}`} value={line.vat_rate} onChange={(e) => onChange({ vat_rate: e.target.value, vat_category: '', vat_exemption_reason: '' })}>
              {rates.map((r) => (
                <option key={r} value={r}>
                  {formatRate(r)}
                </option>
              ))}
            </Select>
          </Field>
          {(zero || (line.vat_category && line.vat_category !== 'S')) && (
            <Field id={id('vat_category')} error={errors.vat_category}>
              <Select
                aria-label={`Catégorie de TVA de la ligne ${n}`}
                value={line.vat_category || (zero ? 'E' : 'S')}
                onChange={(e) => onChange({ vat_category: e.target.value as LineDraft['vat_category'], vat_exemption_reason: '' })}
              >
                {VAT_CATEGORIES.filter((c) => (zero ? c !== 'S' : true)).map((c) => (
                  <option key={c} value={c}>
                    {VAT_CATEGORY_LABELS[c]}
                  </option>
                ))}
              </Select>
            </Field>
          )}
          {reasons.length > 0 && (
            <Field id={id('vat_exemption_reason')} error={errors.vat_exemption_reason}>
              <Select
                aria-label={`Motif d’exonération de la ligne ${n}`}
                value={line.vat_exemption_reason ?? ''}
                onChange={(e) => onChange({ vat_exemption_reason: e.target.value })}
              >
                <option value="">{category === 'E' ? 'Motif d’exonération…' : 'Motif par défaut'}</option>
                {reasons.map((r) => (
                  <option key={r.code} value={r.code}>
                    {r.label}
                  </option>
                ))}
              </Select>
            </Field>
          )}
          {!(zero || (line.vat_category && line.vat_category !== 'S')) && <FieldError id={`${id('vat_category')}-error`} message={errors.vat_category} />}
        </div>
      </td>
      <td data-label="Total HT" className="num" data-testid={`line-${index}-total`}>
        {total === null ? <span className="muted">—</span> : formatMoney(total)}
      </td>
      <td className="line-tools">
        <Button variant="ghost" small aria-label={`Monter la ligne ${n}`} disabled={index === 0} onClick={() => onMove(-1)}>
          ↑
        </Button>
        <Button variant="ghost" small aria-label={`Descendre la ligne ${n}`} disabled={index === count - 1} onClick={() => onMove(1)}>
          ↓
        </Button>
        <Button variant="ghost" small aria-label={`Supprimer la ligne ${n}`} onClick={onRemove}>
          ✕
        </Button>
      </td>
    </tr>
  );
}

/** A VAT group of the live totals: "TVA 20 % sur 1 000,00 €", or its exemption. */
export function GroupRow({ group }: { group: { vat_category: string; vat_rate: string; base: number; vat: number } }) {
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
