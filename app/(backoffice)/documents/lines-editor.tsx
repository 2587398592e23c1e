'use client';

import { useMemo } from 'react';
import { formatMoney, formatRate } from '@/lib/platform/format';
import { searchProductsAction } from './actions';
import { emptyLine, errorAt, isBlankLine, type LineDraft, lineErrors, lineFromProduct, liveTotals, moveLine, type ProductChoice } from './editor-model';
import { GroupRow, LineRow } from './line-row';
import { SearchPicker } from './search-picker';
import { Button, type Column, DataTable } from '@/components/ui';

interface Props {
  lines: LineDraft[];
  /** The form's errors, keyed as the API's fields (`items`, `items.2.vat_rate`). */
  errors: Record<string, string>;
  /** Changes the lines in place (a field typed, a line or product added). */
  update: (change: (lines: LineDraft[]) => LineDraft[]) => void;
  /** Lines moved or removed: their indexes shift, so the form drops its errors keyed items.N. */
  reshape: (lines: LineDraft[]) => void;
}

/**
 * The lines of a draft or of a recurring template: the table of lines (LineRow), "Ajouter une ligne / une remise", the
 * catalogue's product picker and the live totals from lib/platform/money (what the server will compute for these lines).
 */
/** The lines table's headers and widths; each row is a LineRow (its cells carry the data-label the phone layout prints). */
const LINE_COLUMNS: Array<Column<LineDraft>> = [
  { key: 'description', header: 'Désignation' },
  { key: 'quantity', header: 'Quantité', num: true, width: 96 },
  { key: 'unit', header: 'Unité', width: 104 },
  { key: 'unit_price', header: 'Prix unitaire HT', num: true, width: 130 },
  { key: 'vat_rate', header: 'TVA', width: 150 },
  { key: 'total_ht', header: 'Total HT', num: true, width: 112 },
  { key: 'tools', header: <span className="sr-only">Ordre et suppression</span>, width: 108 },
];

export function LinesEditor({ lines, errors, update, reshape }: Props) {
  const live = useMemo(() => liveTotals(lines), [lines]);
  const setLine = (index: number, change: Partial<LineDraft>) => update((ls) => ls.map((l, i) => (i === index ? { ...l, ...change } : l)));
  const pickProduct = (p: ProductChoice) =>
    update((ls) => {
      // A blank last line is filled rather than left empty above the product.
      const last = ls.at(-1);
      return last && isBlankLine(last) ? [...ls.slice(0, -1), lineFromProduct(p, last)] : [...ls, lineFromProduct(p)];
    });
  const itemsError = errorAt(errors, 'items');

  return (
    <>
      {itemsError && (
        <p className="field-error" id="doc-items-error" role="alert">
          {itemsError}
        </p>
      )}
      <DataTable
        label="Lignes du document"
        className="lines"
        columns={LINE_COLUMNS}
        rows={lines}
        rowKey={(line) => line.key}
        renderRow={(line, i) => (
          <LineRow
            line={line}
            index={i}
            count={lines.length}
            total={live.lines[i] ?? null}
            errors={lineErrors(errors, i)}
            onChange={(change) => setLine(i, change)}
            onMove={(delta) => reshape(moveLine(lines, i, delta))}
            onRemove={() => reshape(lines.filter((_, j) => j !== i))}
          />
        )}
      />
      <div className="toolbar" style={{ marginTop: 12 }}>
        <Button small onClick={() => update((ls) => [...ls, emptyLine('product', ls.at(-1)?.vat_rate)])}>
          Ajouter une ligne
        </Button>
        <Button small onClick={() => update((ls) => [...ls, emptyLine('discount', ls.at(-1)?.vat_rate)])}>
          Ajouter une remise
        </Button>
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
    </>
  );
}
