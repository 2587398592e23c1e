import type { ReactNode } from 'react';
import { Button, LinkButton } from './button';
import type { UrlFilters } from './list-query';

/**
 * Why: every list filters the same way — a `<search>` GET form in a `.toolbar` (it works without JavaScript and the
 * filters stay in the URL), "Filtrer", and "Effacer les filtres" once something is filtered. The status chips under
 * it are FilterChips (list-page.tsx).
 */
export interface FilterBarProps {
  /** The list's URL: the form's action and where "Effacer les filtres" leads. */
  base: string;
  /** Something is filtered: show the reset link. */
  filtered: boolean;
  /** Values the form does not show but keeps (the chips' status, the sort): hidden inputs, blank ones left out. */
  keep?: UrlFilters;
  /** The submit button's label; null when the fields submit the form themselves. */
  submitLabel?: string | null;
  resetLabel?: string;
  /** The filter fields, each named by a label or an aria-label. */
  children: ReactNode;
}

export function FilterBar({ base, filtered, keep = {}, submitLabel = 'Filtrer', resetLabel = 'Effacer les filtres', children }: FilterBarProps) {
  return (
    <search>
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
