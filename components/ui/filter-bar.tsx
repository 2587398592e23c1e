import type { ReactNode } from 'react';
import { Button, LinkButton } from './button';
import type { UrlFilters } from './list-query';

/**
 * Why: every list filters the same way — a `<search>` GET form in a `.toolbar` (it works without JavaScript and the
 * filters stay in the URL), "Filtrer", and "Effacer les filtres" once something is filtered. The status chips under
 * it are FilterChips (list-page.tsx), passed as `chips` so that they fold with the fields.
 *
 * On a phone (≤ 640 px) the whole bar folds behind « Filtres (n) », n the filters in force: a `<details>`, so it
 * opens without JavaScript; wider, the summary is hidden and the content always shown (globals.css,
 * `::details-content`), so the same markup serves both and the list's first row is in the phone's first screen.
 */
export interface FilterBarProps {
  /** The list's URL: the form's action and where "Effacer les filtres" leads. */
  base: string;
  /** Something is filtered: show the reset link. */
  filtered: boolean;
  /** How many filters are in force (the chips' included), said by the phone's « Filtres (n) »; 0 or 1 from `filtered` if omitted. */
  active?: number;
  /** The list's FilterChips: under the fields, folded with them on a phone. */
  chips?: ReactNode;
  /** Values the form does not show but keeps (the chips' status, the sort): hidden inputs, blank ones left out. */
  keep?: UrlFilters;
  /** The submit button's label; null when the fields submit the form themselves. */
  submitLabel?: string | null;
  resetLabel?: string;
  /** The filter fields, each named by a label or an aria-label. */
  children: ReactNode;
}

export function FilterBar({ base, filtered, active, keep = {}, submitLabel = 'Filtrer', resetLabel = 'Effacer les filtres', chips, children }: FilterBarProps) {
  const count = active ?? (filtered ? 1 : 0);
  return (
    <search className="filter-bar">
      <details className="filter-fold">
        {/* One span: the summary is an inline-flex button, whose gap would split « (2 ) » around the hidden word. */}
        <summary className="btn btn-sm">
          <span>
            Filtres
            {count > 0 && (
              <>
                {' '}
                ({count}
                <span className="sr-only"> {count > 1 ? 'actifs' : 'actif'}</span>)
              </>
            )}
          </span>
        </summary>
        <form className="toolbar" action={base}>
          {children}
          {Object.entries(keep).map(([name, value]) => value && <input key={name} type="hidden" name={name} value={value} />)}
          {submitLabel && <Button type="submit">{submitLabel}</Button>}
          {filtered && (
            <LinkButton variant="ghost" href={base}>
              {resetLabel}
            </LinkButton>
          )}
        </form>
        {chips}
      </details>
    </search>
  );
}

export interface FilterSelectProps {
  name: string;
  /** The select's accessible name. */
  label: string;
  /** The first option, which filters nothing ("Tous les types"). */
  allLabel: string;
  /** Each value and its label, in the order shown. */
  options: Readonly<Record<string, string>>;
  value: string | undefined;
}

/** One of a FilterBar's select filters: "all" first, then the values; the URL's value preselected. */
export function FilterSelect({ name, label, allLabel, options, value }: FilterSelectProps) {
  return (
    <select name={name} aria-label={label} defaultValue={value ?? ''}>
      <option value="">{allLabel}</option>
      {Object.entries(options).map(([v, text]) => (
        <option key={v} value={v}>
          {text}
        </option>
      ))}
    </select>
  );
}
