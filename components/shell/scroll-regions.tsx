'use client';

import { useEffect } from 'react';

/**
 * On a phone, tables scroll sideways inside themselves (globals.css). A keyboard user can scroll one only if it takes
 * the focus (WCAG 2.1.1): a table that overflows gets tabindex="0" (its aria-label names it), and loses it once it
 * fits again. Watched on every page of the shell, as content and the window's width change.
 */
export function ScrollRegions() {
  useEffect(() => {
    let frame = 0;
    const mark = () => {
      frame = 0;
      for (const table of document.querySelectorAll<HTMLElement>('main .table')) {
        const scrolls = table.scrollWidth > table.clientWidth + 1;
        if (scrolls && !table.hasAttribute('tabindex')) {
          table.setAttribute('tabindex', '0');
          table.dataset.scrollFocus = 'true';
        } else if (!scrolls && table.dataset.scrollFocus) {
          table.removeAttribute('tabindex');
          delete table.dataset.scrollFocus;
        }
      }
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(mark);
    };
    mark();
    const main = document.querySelector('main');
    const observer = new MutationObserver(schedule);
    if (main) observer.observe(main, { childList: true, subtree: true });
    window.addEventListener('resize', schedule);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', schedule);
      cancelAnimationFrame(frame);
    };
  }, []);
  return null;
}
