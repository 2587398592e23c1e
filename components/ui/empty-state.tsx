import Link from 'next/link';
import type { ReactNode } from 'react';

/** Why: a list with nothing to show says so the same way everywhere (`.empty`), and a filtered one offers the way back. */
export interface EmptyStateProps {
  /** What the emptiness means: "Aucun contact pour l’instant." */
  children: ReactNode;
  /** What to do next, a second line: "Créer un contact ou importer un fichier CSV." */
  action?: ReactNode;
  /** When the list is filtered (or past its first page), this replaces the above: the message and a link to the whole list. */
  noMatch?: { when: boolean; message: ReactNode; href: string; label: ReactNode };
}

export function EmptyState({ children, action, noMatch }: EmptyStateProps) {
  if (noMatch?.when) {
    return (
      <p className="empty">
        {noMatch.message} <Link href={noMatch.href}>{noMatch.label}</Link>
      </p>
    );
  }
  if (!action) return <p className="empty">{children}</p>;
  return (
    <div className="empty">
      <p>{children}</p>
      <p>{action}</p>
    </div>
  );
}
