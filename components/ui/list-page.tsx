import Link from 'next/link';
import type { ListSort } from '@/lib/platform/http';
import { LinkButton } from './button';
import { listHref, type UrlFilters } from './list-query';
import { ChipLink } from './status-chip';

/** One chip per value of a filter, plus "Tous"; the current one is marked for assistive technology and the CSS. */
export function FilterChips<V extends string>(props: {
  base: string;
  filters: UrlFilters;
  name: string;
  values: readonly V[];
  labels: Record<V, string>;
  chips: Record<V, string>;
  label: string;
}) {
  const { base, filters, name, values, labels, chips } = props;
  const current = filters[name];
  return (
    <nav className="toolbar" aria-label={props.label}>
      <ChipLink href={listHref(base, filters, { [name]: undefined })} current={!current}>
        Tous
      </ChipLink>
      {values.map((v) => (
        <ChipLink key={v} tone={chips[v]} href={listHref(base, filters, { [name]: v })} current={current === v}>
          {labels[v]}
        </ChipLink>
      ))}
    </nav>
  );
}

/** "Première page" once past the first, "Suivant" while there is more. Nothing when everything fits on one page. */
export function Pager({ base, filters, nextCursor }: { base: string; filters: UrlFilters; nextCursor: string | null }) {
  if (!filters.cursor && !nextCursor) return null;
  return (
    <div className="toolbar">
      {filters.cursor && (
        <LinkButton href={listHref(base, filters, {})}>Première page</LinkButton>
      )}
      {nextCursor && (
        <LinkButton href={listHref(base, filters, { cursor: nextCursor })} rel="next">
          Suivant
        </LinkButton>
      )}
    </div>
  );
}

/**
 * A sortable column's header: a link (no JavaScript needed) keeping the filters, back at the first page; the
 * current column says its direction (aria-sort) and a second click reverses it. `first` is the direction a click
 * on another column starts with (newest dates and largest amounts first read better).
 */
export function SortHeader(props: {
  base: string;
  filters: UrlFilters;
  sort: ListSort | undefined;
  name: string;
  label: string;
  first?: 'asc' | 'desc';
  className?: string;
  /** The column's place on a phone card (DataTable's `cards`): a hidden column's sort link is left off too. */
  card?: string;
}) {
  const { base, filters, sort, name, label, first = 'asc', className, card } = props;
  const current = sort?.key === name ? sort.dir : undefined;
  const next = current ? (current === 'asc' ? 'desc' : 'asc') : first;
  return (
    <th className={className} scope="col" data-card={card} aria-sort={current === 'asc' ? 'ascending' : current === 'desc' ? 'descending' : undefined}>
      <Link className="sort-link" href={listHref(base, filters, { sort: name, dir: next })}>
        {label}
        <span aria-hidden="true">{current === 'asc' ? ' ▲' : current === 'desc' ? ' ▼' : ' ↕'}</span>
        <span className="sr-only">{next === 'asc' ? ', trier par ordre croissant' : ', trier par ordre décroissant'}</span>
      </Link>
    </th>
  );
}
