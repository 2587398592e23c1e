'use client';

import Link from 'next/link';
import { useState, useTransition } from 'react';
import type { Contact, DuplicateGroup, MergeResult } from '@/lib/domain/contacts';
import { CHOOSABLE_FIELDS, type ChoosableField, type ContactField } from '@/lib/domain/contacts/client';
import { formatInstant, plural, pluralWord } from '@/lib/platform/format';
import { isRefusal, refusalMessage } from '@/lib/platform/next/client';
import { DUPLICATE_REASON_LABELS, FIELD_LABELS, formatValue, RESOURCE_LABELS } from '../labels';
import { mergeAction, previewMergeAction } from './actions';
import { Button, DataTable, StatusChip } from '@/components/ui';

const fieldOf = (c: Contact, field: ContactField) => (c as unknown as Record<ContactField, unknown>)[field];
const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const nameOf = (c: Contact) => c.display_name ?? 'Contact effacé';

/**
 * One group of probable duplicates: pick the contact to keep and the ones to merge into it, preview the
 * merged contact (choosing, field by field, whose value wins when they differ) and what moves, then merge.
 */
export function MergeGroup({ group }: { group: DuplicateGroup }) {
  const oldest = group.contacts.at(-1)!;
  const [targetId, setTargetId] = useState(oldest.id);
  const [sourceIds, setSourceIds] = useState(() => group.contacts.filter((c) => c.id !== oldest.id).map((c) => c.id));
  const [fields, setFields] = useState<Partial<Record<ChoosableField, string>>>({});
  const [preview, setPreview] = useState<MergeResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();

  const target = group.contacts.find((c) => c.id === targetId)!;
  // Sources in the group's order: the API takes a field's value from the first source that has one.
  const sources = group.contacts.filter((c) => sourceIds.includes(c.id));
  const involved = [target, ...sources];

  function changeSelection(nextTarget: string, nextSources: string[]) {
    setTargetId(nextTarget);
    setSourceIds(nextSources);
    setFields({});
    setPreview(null);
    setError(null);
  }

  function runPreview(choices: Partial<Record<ChoosableField, string>>) {
    setFields(choices);
    setError(null);
    startTransition(async () => {
      const answer = await previewMergeAction(targetId, { source_ids: sources.map((c) => c.id), fields: choices });
      if (isRefusal(answer)) {
        setPreview(null);
        setError(refusalMessage(answer));
      } else setPreview(answer);
    });
  }

  function merge() {
    setError(null);
    startTransition(async () => {
      // On success the action opens the merged contact; only a refusal comes back.
      const answer = await mergeAction(targetId, { source_ids: sources.map((c) => c.id), fields });
      if (isRefusal(answer)) setError(refusalMessage(answer));
    });
  }

  const groupName = nameOf(oldest);
  // Fields worth showing: those any involved contact fills. A choice is offered where their values differ.
  const rows = preview ? CHOOSABLE_FIELDS.filter((f) => involved.some((c) => fieldOf(c, f) !== null && fieldOf(c, f) !== false)) : [];

  return (
    <section className="card" aria-label={`Doublons : ${groupName}`}>
      <div className="toolbar">
        <h2 style={{ margin: 0 }}>{groupName}</h2>
        {group.reasons.map((r) => (
          <StatusChip key={r} tone="chip-amber">
            {DUPLICATE_REASON_LABELS[r]}
          </StatusChip>
        ))}
      </div>
      <DataTable
        label={`Contacts du groupe ${groupName}`}
        columns={[
          {
            key: 'garder',
            header: 'Garder',
            cell: (c) => (
              <input
                type="radio"
                name={`target-${oldest.id}`}
                aria-label={`Garder ${nameOf(c)}`}
                checked={c.id === targetId}
                onChange={() => changeSelection(c.id, group.contacts.filter((o) => o.id !== c.id).map((o) => o.id))}
              />
            ),
          },
          {
            key: 'fusionner',
            header: 'Fusionner',
            cell: (c) => (
              <input
                type="checkbox"
                aria-label={`Fusionner ${nameOf(c)}`}
                disabled={c.id === targetId}
                checked={sourceIds.includes(c.id)}
                onChange={(e) => changeSelection(targetId, e.target.checked ? [...sourceIds, c.id] : sourceIds.filter((id) => id !== c.id))}
              />
            ),
          },
          { key: 'nom', header: 'Nom', cell: (c) => <Link href={`/contacts/${c.id}`}>{nameOf(c)}</Link> },
          { key: 'e_mail', header: 'E-mail', cell: (c) => c.email ?? '—' },
          { key: 'siret', header: 'SIRET', cell: (c) => c.siret ?? '—' },
          { key: 'adresse', header: 'Adresse', cell: (c) => [c.address, c.postal_code, c.city].filter(Boolean).join(', ') || '—' },
          { key: 'cree_le', header: 'Créé le', cell: (c) => formatInstant(c.created_at, { time: null }) },
        ]}
        rows={group.contacts}
        rowKey={(c) => c.id}
      />

      <div className="form-actions" style={{ marginTop: 12 }}>
        <Button disabled={pending || sources.length === 0} onClick={() => runPreview(fields)}>
          Aperçu de la fusion
        </Button>
      </div>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}

      {preview && (
        <div className="stack" style={{ marginTop: 16 }} data-testid="merge-preview">
          <h2>Contact après la fusion</h2>
          <DataTable
            label="Contact après la fusion"
            columns={[
              { key: 'field', header: 'Champ', cell: (field) => FIELD_LABELS[field] },
              ...involved.map((c) => ({
                key: c.id,
                header: `${c.id === targetId ? 'Gardé' : 'Fusionné'} : ${nameOf(c)}`,
                cell: (field: (typeof rows)[number]) => {
                  const result = fieldOf(preview.contact, field);
                  const filled = involved.filter((x) => fieldOf(x, field) !== null);
                  const choosable = new Set(filled.map((x) => JSON.stringify(fieldOf(x, field)))).size > 1;
                  const chosen = fields[field] ?? involved.find((x) => same(fieldOf(x, field), result))?.id;
                  return choosable && fieldOf(c, field) !== null ? (
                    <label>
                      <input
                        type="radio"
                        name={`${oldest.id}-${field}`}
                        checked={chosen === c.id}
                        disabled={pending}
                        onChange={() => runPreview({ ...fields, [field]: c.id })}
                      />{' '}
                      {formatValue(field, fieldOf(c, field))}
                    </label>
                  ) : (
                    <span className={fieldOf(c, field) === null ? 'muted' : undefined}>{formatValue(field, fieldOf(c, field))}</span>
                  );
                },
              })),
              {
                key: 'result',
                header: 'Résultat',
                cell: (field) => {
                  const result = fieldOf(preview.contact, field);
                  return same(result, fieldOf(target, field)) ? formatValue(field, result) : <strong>{formatValue(field, result)}</strong>;
                },
              },
            ]}
            rows={rows}
            rowKey={(field) => field}
            after={
              <tr>
                <td>{FIELD_LABELS.tags}</td>
                {involved.map((c) => (
                  <td key={c.id}>{formatValue('tags', c.tags)}</td>
                ))}
                <td>
                  {formatValue('tags', preview.contact.tags)} <span className="muted">(réunies)</span>
                </td>
              </tr>
            }
          />

          <div>
            <h2>Ce qui change</h2>
            <ul>
              <li>
                {plural(sources.length, 'contact')} ({sources.map(nameOf).join(', ')}) {pluralWord(sources.length, 'sera marqué', 'seront marqués')}{' '}
                comme {pluralWord(sources.length, 'fusionné')} dans « {nameOf(target)} » et {pluralWord(sources.length, 'quittera', 'quitteront')} les listes. Une fusion ne se défait pas.
              </li>
              {preview.moves
                .filter((m) => m.count > 0)
                .map((m) => (
                  <li key={m.resource}>
                    {RESOURCE_LABELS[m.resource] ?? m.resource} : {plural(m.count, 'enregistrement')} {pluralWord(m.count, 'rattaché')} à « {nameOf(target)} ».
                  </li>
                ))}
              {preview.moves.every((m) => m.count === 0) && <li>Aucun autre enregistrement à déplacer.</li>}
            </ul>
          </div>
          <div className="form-actions">
            <Button variant="primary" disabled={pending} onClick={merge}>
              Fusionner dans « {nameOf(target)} »
            </Button>
          </div>
        </div>
      )}
    </section>
  );
}
