import { ActionForm, Confirm, LinkButton } from '@/components/ui';
import { activateTemplateAction, deleteTemplateAction, pauseTemplateAction, runTemplateAction } from '../actions';

/**
 * A template's actions: Modifier, Mettre en pause / Activer, and, each behind a confirmation (a disclosure, no
 * JavaScript needed), Générer maintenant and Supprimer. Each says what it did, or why it was refused, beside it.
 */
export function TemplateActions({ id, paused, autoSend }: { id: string; paused: boolean; autoSend: boolean }) {
  return (
    <section className="card" aria-label="Actions du modèle">
      <div className="toolbar">
        <LinkButton href={`/recurring/${id}/edit`}>
          Modifier
        </LinkButton>
        {paused ? (
          <ActionForm action={activateTemplateAction.bind(null, id)} label="Activer" pendingLabel="Activation…" variant="primary" />
        ) : (
          <ActionForm action={pauseTemplateAction.bind(null, id)} label="Mettre en pause" pendingLabel="Mise en pause…" />
        )}
      </div>
      <Confirm summary="Générer maintenant…" tone="notice">
        <p>
          {autoSend
            ? 'La facture de la période en cours est générée tout de suite, puis finalisée, numérotée et envoyée au client (et prélevée si le modèle le prévoit).'
            : 'La facture de la période en cours est générée tout de suite en brouillon.'}{' '}
          La date de la prochaine facture passe ensuite à la période suivante.
        </p>
        <ActionForm action={runTemplateAction.bind(null, id)} label="Générer la facture" pendingLabel="Génération…" variant="primary" />
      </Confirm>
      <Confirm summary="Supprimer le modèle…">
        <p>Le modèle et son historique sont supprimés ; les factures qu’il a générées restent, inchangées.</p>
        <ActionForm action={deleteTemplateAction.bind(null, id)} label="Supprimer définitivement" pendingLabel="Suppression…" variant="danger" />
      </Confirm>
    </section>
  );
}
