import type { CSSProperties, ReactNode } from 'react';

/**
 * Why: the back-office's dialogs are inline panels opened by a button with aria-expanded (no modal, no JavaScript
 * library): one place gives them role="dialog", their accessible name and the notice look.
 */
export interface DialogProps {
  /** The dialog's accessible name: "Finaliser le document". */
  label: string;
  /** `notice` (default) a pale panel, `warning` an irreversible step, `plain` no panel (a form inside a card). */
  tone?: 'notice' | 'warning' | 'plain';
  className?: string;
  style?: CSSProperties;
  children: ReactNode;
}

export function Dialog({ label, tone = 'notice', className, style, children }: DialogProps) {
  const look = tone === 'plain' ? undefined : tone === 'warning' ? 'notice notice-warning' : 'notice';
  return (
    <div role="dialog" aria-label={label} className={[look, className].filter(Boolean).join(' ') || undefined} style={style}>
      {children}
    </div>
  );
}

/** A confirmation folded behind its summary ("Supprimer le modèle…"): `<details>`, which opens without JavaScript. */
export function Confirm({ summary, tone = 'warning', className, style, children }: { summary: ReactNode; tone?: 'notice' | 'warning' | 'plain'; className?: string; style?: CSSProperties; children: ReactNode }) {
  const look = tone === 'plain' ? undefined : tone === 'warning' ? 'notice notice-warning' : 'notice';
  return (
    <details className={[look, className].filter(Boolean).join(' ') || undefined} style={style}>
      <summary>{summary}</summary>
      {children}
    </details>
  );
}
