'use client';

import { useEffect } from 'react';

/**
 * The back-office's keys, as list pages announce them (aria-keyshortcuts): `/` puts the cursor in the page's search,
 * `N` opens the page's "new" action. Ignored while typing in a field or with a modifier held, so nothing a user types
 * is ever taken.
 */
export function KeyboardShortcuts() {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      const target = event.target as HTMLElement | null;
      if (target?.closest('input, textarea, select, [contenteditable="true"]')) return;
      if (event.key === '/') {
        const search = document.querySelector<HTMLInputElement>('main [aria-keyshortcuts="/"]');
        if (!search) return;
        event.preventDefault();
        // On a phone the search is folded with the list's filters (FilterBar): unfold them first.
        search.closest('details')?.setAttribute('open', '');
        search.focus();
        search.select();
      } else if (event.key === 'n' || event.key === 'N') {
        const create = document.querySelector<HTMLElement>('main [aria-keyshortcuts="N"]');
        if (!create) return;
        event.preventDefault();
        create.click();
      }
    };
    document.addEventListener('keydown', onKey);
    // Says the keys are live (the page is hydrated): a key pressed before that reaches no handler.
    document.documentElement.dataset.shortcuts = 'on';
    return () => {
      document.removeEventListener('keydown', onKey);
      delete document.documentElement.dataset.shortcuts;
    };
  }, []);
  return null;
}
