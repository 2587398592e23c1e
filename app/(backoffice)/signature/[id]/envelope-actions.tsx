import { ActionForm, Confirm } from '@/components/ui';
import { approveEnvelopeAction, cancelEnvelopeAction, deleteEnvelopeAction, reactivateEnvelopeAction, remindEnvelopeAction, sendEnvelopeAction } from '../actions';
import { type EnvelopeStatus, envelopeActions } from '../labels';

/**
 * What can be done with the envelope in its status: send (refused beside the button while an approval is pending),
 * approve (for a pending approver), remind, cancel and reactivate, delete a draft; the irreversible ones behind a
 * disclosure (no JavaScript needed). Each says what it did, or why it was refused.
 */
export function EnvelopeActions({ id, status, canApprove, pendingApprovals }: { id: string; status: EnvelopeStatus; canApprove: boolean; pendingApprovals: number }) {
  const can = envelopeActions(status);
  if (!can.send && !can.remind && !can.cancel && !can.reactivate && !canApprove) return null;
  return (
    <section className="card" aria-label="Actions de l’enveloppe">
      <div className="toolbar">
        {canApprove && <ActionForm action={approveEnvelopeAction.bind(null, id)} label="Approuver l’envoi" pendingLabel="Approbation…" variant="primary" />}
        {can.send && (
          <ActionForm action={sendEnvelopeAction.bind(null, id)} label="Envoyer aux signataires" pendingLabel="Envoi…" variant={pendingApprovals ? 'plain' : 'primary'}>
            {pendingApprovals > 0 && (
              <p className="notice notice-warning" role="note">
                {pendingApprovals > 1 ? `${pendingApprovals} approbations sont attendues` : 'Une approbation est attendue'} : l’envoi sera refusé d’ici là.
              </p>
            )}
          </ActionForm>
        )}
        {can.remind && <ActionForm action={remindEnvelopeAction.bind(null, id)} label="Relancer maintenant" pendingLabel="Relance…" />}
      </div>
      {can.reactivate && (
        <Confirm summary="Réactiver…" tone="notice">
          <ActionForm action={reactivateEnvelopeAction.bind(null, id)} label="Réactiver et renvoyer les liens" pendingLabel="Réactivation…" variant="primary">
            <label>
              Nouvelle date d’expiration (vide : dans 30 jours){' '}
              <input type="date" name="expires_on" />
            </label>
          </ActionForm>
        </Confirm>
      )}
      {can.cancel && (
        <Confirm summary="Annuler l’enveloppe…">
          <p>Les liens de signature cessent de fonctionner ; les signatures déjà données restent dans la chaîne de preuves.</p>
          <ActionForm action={cancelEnvelopeAction.bind(null, id)} label="Annuler définitivement" pendingLabel="Annulation…" variant="danger" />
        </Confirm>
      )}
      {can.delete && (
        <Confirm summary="Supprimer le brouillon…">
          <p>Le brouillon, ses signataires et ses champs sont supprimés.</p>
          <ActionForm action={deleteEnvelopeAction.bind(null, id)} label="Supprimer le brouillon" pendingLabel="Suppression…" variant="danger" />
        </Confirm>
      )}
    </section>
  );
}
