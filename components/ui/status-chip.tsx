import Link from 'next/link';
import type { ComponentProps } from 'react';

/** Why: a status is always the `.chip` pill with its colour class (`chip-green`, `chip-amber`, `chip-red`, `chip-blue`, `chip-grey`). */
export interface StatusChipProps extends Omit<ComponentProps<'span'>, 'className'> {
  /** The colour class from the status's label map (`STATUS_CHIPS[status]`); none is the grey default. */
  tone?: string;
}

/** A status pill (a `<span>`: a data-testid, a title or role="status" pass through). */
export function StatusChip({ tone, ...span }: StatusChipProps) {
  return <span className={tone ? `chip ${tone}` : 'chip'} {...span} />;
}

export interface ChipLinkProps extends Omit<ComponentProps<typeof Link>, 'className'> {
  tone?: string;
  /** The chip stands for the page or filter shown: aria-current, which the CSS rings. */
  current?: boolean;
}

/** A chip that leads somewhere: a filter value, a tab, a tag. */
export function ChipLink({ tone, current, ...link }: ChipLinkProps) {
  return <Link className={tone ? `chip ${tone}` : 'chip'} aria-current={current ? 'true' : undefined} {...link} />;
}
