import { type CSSProperties, Fragment, type HTMLAttributes, type ReactNode } from 'react';
import { formatMoney } from '@/lib/platform/format';
import type { ListSort } from '@/lib/platform/http';
import { DownloadButton } from './button';
import { SortHeader } from './list-page';
import type { UrlFilters } from './list-query';

/*
 * Why: every table of the back-office is `.table` with its aria-label (on a phone it scrolls inside itself and
 * components/shell/scroll-regions.tsx gives it tabindex="0", so it needs a name), column headers with scope, figures
 * right-aligned (`.num`), sortable headers as links with aria-sort. A server component (no state): usable from pages
 * and from client components alike.
 */

export interface Column<T> {
  /** The column's React key; for a sortable column, the list's sort key unless `sort.name` says another. */
  key: string;
  header: ReactNode;
  /** The cell's content; omitted when the table's renderRow draws the rows. */
  cell?: (row: T, index: number) => ReactNode;
  /** Figures: `.num` on the header and the cells (right-aligned, tabular). */
  num?: boolean;
  /** An amount in integer cents: the cell is formatMoney of it (or a dash when null), right-aligned; replaces `cell`. */
  money?: (row: T) => number | null | undefined;
  /** A sortable column (the table's `sort` says the list and its current order): the key and a first click's direction. */
  sort?: true | { name?: string; first?: 'asc' | 'desc' };
  /** Extra class of the header and the cells (`select-cell`, `line-tools`). */
  className?: string;
  /** The cells are the rows' headers (`<th scope="row">`). */
  rowHeader?: boolean;
  /** `data-label` of each cell: the phone layout of `.table.lines` prints it above the cell's control. */
  dataLabel?: string;
  /** A fixed width (a `<colgroup>` is written when a column has one). */
  width?: number | string;
  /**
   * Its place on a phone card (a `cards` table at ≤ 640 px): `title` heads the card (the row's link; the first column
   * unless one says so), `chips` a line of chips without a label, `figure` the amount in bold, `hide` left off the
   * card (a detail the document's page has). Any other cell is a line of the card, its header as the label.
   */
  card?: 'title' | 'chips' | 'figure' | 'hide';
}

export type CardRole = NonNullable<Column<unknown>['card']>;

type RowAttributes = HTMLAttributes<HTMLTableRowElement> & { [data: `data-${string}`]: string | undefined };

export interface DataTableProps<T> {
  /** The table's accessible name (aria-label). */
  label: string;
  /** The columns in order; `false`/`null` leaves a conditional column out. */
  columns: ReadonlyArray<Column<T> | false | null | undefined>;
  rows: readonly T[];
  rowKey: (row: T, index: number) => string | number;
  /**
   * A row that is its own component (an editable line with its state): it renders the whole `<tr>` and its cells,
   * in the columns' order; `cell` is then not called.
   */
  renderRow?: (row: T, index: number) => ReactNode;
  /** A row's own attributes: a class (`current`, `discount`), a data-testid. */
  rowProps?: (row: T, index: number) => RowAttributes;
  /** For sortable columns: the list's URL, its filters (kept by the header links) and its current sort. */
  sort?: { base: string; filters: UrlFilters; current: ListSort | undefined };
  /** A CSV download of what the table shows (the page builds the href with its filters), above the table. */
  csv?: { href: string; label?: string; filename?: string };
  /** Rows after the data rows, in the body ("… et 3 autres", a row of another shape). */
  after?: ReactNode;
  /** `<tfoot>` rows (totals); MoneyCell for their figures. */
  foot?: ReactNode;
  /** Extra class of the table (`lines`). */
  className?: string;
  /**
   * A list's table: on a phone (≤ 640 px) each row is a card (the columns' `card` places their cells), pure CSS —
   * the same markup, so no JavaScript and no second rendering; wider, the table it always was.
   */
  cards?: boolean;
  id?: string;
  style?: CSSProperties;
}

export function DataTable<T>({ label, columns, rows, rowKey, renderRow, rowProps, sort, csv, after, foot, className, cards, id, style }: DataTableProps<T>) {
  const shown = columns.filter((c): c is Column<T> => Boolean(c));
  const cellClass = (c: Column<T>) => [c.num || c.money ? 'num' : null, c.className].filter(Boolean).join(' ') || undefined;
  const content = (c: Column<T>, row: T, i: number) => (c.money ? money(c.money(row)) : c.cell?.(row, i));
  const titled = shown.find((c) => c.card === 'title') ?? shown.find((c) => c.className !== 'select-cell' && !c.card);
  // On a card a cell says what it is (its header), unless it is the title, a line of chips or the row's checkbox.
  const role = (c: Column<T>) => (cards ? (c === titled ? 'title' : c.card) : undefined);
  const cellLabel = (c: Column<T>) => c.dataLabel ?? (cards && role(c) !== 'title' && role(c) !== 'chips' && typeof c.header === 'string' ? c.header : undefined);
  const classes = ['table', className, cards ? 'cards' : null].filter(Boolean).join(' ');
  const table = (
    <table id={id} className={classes} aria-label={label} style={style}>
      {shown.some((c) => c.width !== undefined) && (
        <colgroup>
          {shown.map((c) => (
            <col key={c.key} style={c.width === undefined ? undefined : { width: c.width }} />
          ))}
        </colgroup>
      )}
      <thead>
        <tr>
          {shown.map((c) =>
            c.sort && sort ? (
              <SortHeader
                key={c.key}
                base={sort.base}
                filters={sort.filters}
                sort={sort.current}
                name={(c.sort !== true && c.sort.name) || c.key}
                label={String(c.header)}
                first={c.sort === true ? undefined : c.sort.first}
                className={cellClass(c)}
                card={role(c)}
              />
            ) : (
              <th key={c.key} scope="col" className={cellClass(c)} data-card={role(c)}>
                {c.header}
              </th>
            ),
          )}
        </tr>
      </thead>
      <tbody>
        {rows.map((row, i) =>
          renderRow ? (
            <Fragment key={rowKey(row, i)}>{renderRow(row, i)}</Fragment>
          ) : (
          <tr key={rowKey(row, i)} {...rowProps?.(row, i)}>
            {shown.map((c) =>
              c.rowHeader ? (
                <th key={c.key} scope="row" className={cellClass(c)} data-label={cellLabel(c)} data-card={role(c)}>
                  {content(c, row, i)}
                </th>
              ) : (
                <td key={c.key} className={cellClass(c)} data-label={cellLabel(c)} data-card={role(c)}>
                  {content(c, row, i)}
                </td>
              ),
            )}
          </tr>
          ),
        )}
        {after}
      </tbody>
      {foot && <tfoot>{foot}</tfoot>}
    </table>
  );
  if (!csv) return table;
  return (
    <>
      <div className="toolbar table-tools">
        <DownloadButton small href={csv.href} download={csv.filename ?? true}>
          {csv.label ?? 'Exporter en CSV'}
        </DownloadButton>
      </div>
      {table}
    </>
  );
}

/** Why: an amount in integer cents, as every table prints one: lib/platform/format's French money, right-aligned. */
export function MoneyCell({ cents, as = 'td', colSpan, label }: { cents: number | null | undefined; as?: 'td' | 'th'; colSpan?: number; label?: string }) {
  const text = money(cents);
  return as === 'th' ? (
    <th scope="row" className="num" colSpan={colSpan} data-label={label}>
      {text}
    </th>
  ) : (
    <td className="num" colSpan={colSpan} data-label={label}>
      {text}
    </td>
  );
}

/** An amount in cents as the tables print it: "1 234,56 €", a muted dash when there is none. */
function money(cents: number | null | undefined): ReactNode {
  return cents == null ? <span className="muted">—</span> : formatMoney(cents);
}
