'use client';

import { useEffect, useId, useRef, useState, useTransition } from 'react';
import { useFieldControl } from '@/components/ui';
import { isRefusal, type Refusal } from '@/lib/platform/next/client';

interface Props<T extends { id: string }> {
  label: string;
  placeholder?: string;
  /** A server action answering the first matches of the text typed ('' lists the most recent); a refusal lists none. */
  search: (q: string) => Promise<T[] | Refusal>;
  onPick: (choice: T) => void;
  renderOption: (choice: T) => React.ReactNode;
  /** Text of the "no match" line. */
  emptyText: string;
  /**
   * A last option creating what was typed ("Créer « Dupont SARL »"), offered when the text matches no option
   * exactly (`matches` tells whether an option is what was typed).
   */
  create?: { label: (text: string) => string; onCreate: (text: string) => void; matches: (choice: T, text: string) => boolean };
}

/**
 * A search box with a list of matches (ARIA combobox): type to search, arrows to move, Enter to pick, Escape
 * to close. The server does the searching, 200 ms after the last key. In a Field, it is that field's control.
 */
export function SearchPicker<T extends { id: string }>({ label, placeholder, search, onPick, renderOption, emptyText, create }: Props<T>) {
  const listId = useId();
  const control = useFieldControl();
  const [q, setQ] = useState('');
  const [options, setOptions] = useState<T[] | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const [searching, startSearch] = useTransition();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const asked = useRef('');

  const run = (text: string) => {
    asked.current = text;
    startSearch(async () => {
      const found = await search(text);
      // An answer to an older query is dropped: the list always matches what is typed.
      if (asked.current === text) {
        setOptions(isRefusal(found) ? [] : found);
        setActive(0);
      }
    });
  };
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const pick = (choice: T) => {
    onPick(choice);
    setOpen(false);
    setQ('');
    setOptions(null);
  };
  const typed = q.trim();
  const offerCreate = Boolean(create && typed && options !== null && !options.some((o) => create.matches(o, typed)));
  // The create option comes after the matches, at index options.length.
  const count = (options?.length ?? 0) + (offerCreate ? 1 : 0);
  const choose = (i: number) => {
    const choice = options?.[i];
    if (choice) pick(choice);
    else if (offerCreate && i === (options?.length ?? 0)) {
      create!.onCreate(typed);
      setOpen(false);
    }
  };

  return (
    <div className="picker">
      <input
        {...control}
        type="search"
        role="combobox"
        aria-label={label}
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open && active < count ? `${listId}-${active}` : undefined}
        placeholder={placeholder}
        autoComplete="off"
        value={q}
        onFocus={() => {
          setOpen(true);
          if (options === null) run(q);
        }}
        onBlur={() => setOpen(false)}
        onChange={(e) => {
          const text = e.target.value;
          setQ(text);
          setOpen(true);
          if (timer.current) clearTimeout(timer.current);
          timer.current = setTimeout(() => run(text), 200);
        }}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault();
            setOpen(true);
            const n = count;
            if (n) setActive((i) => (i + (e.key === 'ArrowDown' ? 1 : n - 1)) % n);
          } else if (e.key === 'Enter') {
            // Enter picks; it never submits the surrounding form.
            e.preventDefault();
            if (open) choose(active);
          } else if (e.key === 'Escape') {
            setOpen(false);
          }
        }}
      />
      {open && (
        <div className="picker-options" id={listId} role="listbox" aria-label={label} aria-busy={searching}>
          {options === null ? (
            <div className="muted">Recherche…</div>
          ) : (
            <>
              {options.length === 0 && <div className="muted">{emptyText}</div>}
              {options.map((choice, i) => (
                <div
                  key={choice.id}
                  id={`${listId}-${i}`}
                  role="option"
                  tabIndex={-1}
                  aria-selected={i === active}
                  // mousedown, not click: the input's blur would close the list before the click lands.
                  onMouseDown={(e) => {
                    e.preventDefault();
                    pick(choice);
                  }}
                  onMouseEnter={() => setActive(i)}
                >
                  {renderOption(choice)}
                </div>
              ))}
              {offerCreate && (
                <div
                  id={`${listId}-${options.length}`}
                  role="option"
                  tabIndex={-1}
                  aria-selected={active === options.length}
                  className="picker-create"
                  onMouseDown={(e) => {
                    e.preventDefault();
                    choose(options.length);
                  }}
                  onMouseEnter={() => setActive(options.length)}
                >
                  {create!.label(typed)}
                </div>
              )}
            </>
          )}
        </div>
      )}
    </div>
  );
}
