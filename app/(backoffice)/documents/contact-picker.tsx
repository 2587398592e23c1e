'use client';

import { type ContactChoice, searchContactsAction } from './actions';
import { SearchPicker } from './search-picker';
import { Button } from '@/components/ui';

/**
 * The search box that picks one of the org's live contacts (name, then e-mail and city): the editors' client, the
 * lists' client filter. With `onCreate`, "Créer « … »" is offered when no contact has the name typed.
 */
export function ContactPicker({
  label,
  placeholder,
  onPick,
  onCreate,
}: {
  label: string;
  placeholder: string;
  onPick: (contact: ContactChoice) => void;
  onCreate?: (name: string) => void;
}) {
  return (
    <SearchPicker<ContactChoice>
      label={label}
      placeholder={placeholder}
      search={searchContactsAction}
      onPick={onPick}
      emptyText="Aucun contact ne correspond."
      create={
        onCreate && {
          label: (text) => `Créer « ${text} »`,
          onCreate,
          matches: (c, text) => c.name.toLocaleLowerCase('fr') === text.toLocaleLowerCase('fr'),
        }
      }
      renderOption={(c) => (
        <>
          <strong>{c.name}</strong>
          {c.detail && <span className="muted"> · {c.detail}</span>}
        </>
      )}
    />
  );
}

/** The contact an editor has chosen, and « Changer de client » to pick another. */
export function ChosenContact({ name, onChange }: { name: string; onChange: () => void }) {
  return (
    <div className="toolbar">
      <strong data-testid="editor-contact">{name}</strong>
      <Button small onClick={onChange}>
        Changer de client
      </Button>
    </div>
  );
}
