import { ActionForm, StatusChip } from '@/components/ui';
import { formatInstant } from '@/lib/platform/format';
import { addApproverAction, removeApproverAction } from '../actions';

/**
 * The envelope's approvers: members who must approve before it can be sent. Added and removed while it is a draft;
 * each is e-mailed when added.
 */
export function Approvers({
  id,
  draft,
  approvers,
  members,
}: {
  id: string;
  draft: boolean;
  approvers: Array<{ id: string; user_id: string; approved_at: string | null }>;
  members: Array<{ id: string; name: string; canApprove: boolean }>;
}) {
  const nameOf = (userId: string) => members.find((m) => m.id === userId)?.name ?? 'Membre retiré';
  // A comptable reads only: never asked for an approval they could not give.
  const candidates = members.filter((m) => m.canApprove && !approvers.some((a) => a.user_id === m.id));
  return (
    <section className="card" aria-labelledby="approvers">
      <h2 id="approvers">Approbation avant envoi</h2>
      {approvers.length === 0 ? (
        <p className="muted">Aucun approbateur : l’enveloppe peut être envoyée directement.</p>
      ) : (
        <ul className="signer-list">
          {approvers.map((a) => (
            <li key={a.id}>
              {nameOf(a.user_id)}{' '}
              {a.approved_at ? (
                <StatusChip tone="chip-green">approuvé le {formatInstant(a.approved_at, { time: 'short' })}</StatusChip>
              ) : (
                <StatusChip tone="chip-amber">en attente</StatusChip>
              )}
              {draft && <ActionForm action={removeApproverAction.bind(null, id, a.id)} label={`Retirer ${nameOf(a.user_id)}`} pendingLabel="Retrait…" variant="ghost" small />}
            </li>
          ))}
        </ul>
      )}
      {draft && candidates.length > 0 && (
        <ActionForm action={addApproverAction.bind(null, id)} label="Ajouter l’approbateur" pendingLabel="Ajout…">
          <label>
            Membre de l’organisation{' '}
            <select name="user_id" required>
              {candidates.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.name}
                </option>
              ))}
            </select>
          </label>
        </ActionForm>
      )}
    </section>
  );
}
