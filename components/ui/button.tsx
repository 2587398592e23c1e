import Link from 'next/link';
import type { ComponentProps } from 'react';

/** Why: one place turns a button's intent into globals.css's classes, so no page writes `className="btn…"` by hand. */

/** plain `.btn`; primary the page's main action; danger a deletion or a cancellation; ghost a quiet one (Retour, Fermer). */
export type ButtonVariant = 'plain' | 'primary' | 'danger' | 'ghost';

export interface ButtonLook {
  variant?: ButtonVariant;
  /** `.btn-sm`: in a table row, a toolbar of small actions. */
  small?: boolean;
  /** Extra classes a particular button needs (`placer-source`). */
  className?: string;
}

/** The class list of a button of this look: "btn btn-danger btn-sm". */
export function buttonClass({ variant = 'plain', small, className }: ButtonLook = {}): string {
  return ['btn', variant === 'plain' ? null : `btn-${variant}`, small ? 'btn-sm' : null, className].filter(Boolean).join(' ');
}

export interface ButtonProps extends ButtonLook, Omit<ComponentProps<'button'>, 'className'> {}

/** A `<button>` (type="button" unless told otherwise), styled by its variant. */
export function Button({ variant, small, className, type = 'button', ...button }: ButtonProps) {
  return <button type={type} className={buttonClass({ variant, small, className })} {...button} />;
}

export interface LinkButtonProps extends ButtonLook, Omit<ComponentProps<typeof Link>, 'className'> {}

/** A link that looks like a button: next/link for a page of the app. */
export function LinkButton({ variant, small, className, ...link }: LinkButtonProps) {
  return <Link className={buttonClass({ variant, small, className })} {...link} />;
}

export interface DownloadButtonProps extends ButtonLook, Omit<ComponentProps<'a'>, 'className'> {
  href: string;
}

/** A plain `<a>` that looks like a button, for a file (a CSV, a PDF, an export) or a route outside the app's pages. */
export function DownloadButton({ variant, small, className, ...anchor }: DownloadButtonProps) {
  return <a className={buttonClass({ variant, small, className })} {...anchor} />;
}
