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
