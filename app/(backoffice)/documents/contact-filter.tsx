'use client';

import { useRef, useState } from 'react';
import { ContactPicker } from './contact-picker';
import { StatusChip } from '@/components/ui';

/** The list's client filter: a contact search that submits the filter form with the contact picked. */
export function ContactFilter({ contact }: { contact: { id: string; name: string } | null }) {
  const [chosen, setChosen] = useState(contact);
  const hidden = useRef<HTMLInputElement>(null);
  // The DOM value is set at once: the form is sent before React renders the new state.
  const submitWith = (id: string) => {
    if (!hidden.current) return;
    hidden.current.value = id;
    hidden.current.form?.requestSubmit();
  };
  return (
    <>
      <input ref={hidden} type="hidden" name="contact_id" value={chosen?.id ?? ''} />
      {chosen ? (
        <StatusChip tone="chip-blue">
          Client : {chosen.name}{' '}
          <button
            type="button"
            className="chip-remove"
            aria-label={`Retirer le filtre client ${chosen.name}`}
            onClick={() => {
              setChosen(null);
              submitWith('');
            }}
          >
            ✕
          </button>
        </StatusChip>
      ) : (
        <ContactPicker
          label="Filtrer par client"
          placeholder="Client…"
          onPick={(c) => {
            setChosen({ id: c.id, name: c.name });
            submitWith(c.id);
          }}
        />
      )}
    </>
  );
}
