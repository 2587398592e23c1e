import Link from 'next/link';
import { ActionForm } from '@/components/action-form';
import { activateTemplateAction, deleteTemplateAction, pauseTemplateAction, runTemplateAction } from '../actions';

/**
 * A template's actions: Modifier, Mettre en pause / Activer, and, each behind a confirmation (a disclosure, no
 * JavaScript needed), Générer maintenant and Supprimer. Each says what it did, or why it was refused, beside it.
 */
export function TemplateActions({ id, paused, autoSend }: { id: string; paused: boolean; autoSend: boolean }) {
  return (
    <section className="card" aria-label="Actions du modèle">
      <div className="toolbar">
        <Link className="btn" href={`/recurring/${id}/edit`}>
          Modifier
        </Link>
        {paused ? (
          <ActionForm action={activateTemplateAction.bind(null, id)} label="Activer" pendingLabel="Activation…" className="btn btn-primary" />
        ) : (
          <ActionForm action={pauseTemplateAction.bind(null, id)} label="Mettre en pause" pendingLabel="Mise en pause…" />
        )}
      </div>
      <details className="notice">
        <summary>Générer maintenant…</summary>
        <p>
          {autoSend
            ? 'La facture de la période en cours est générée tout de suite, puis finalisée, numérotée et envoyée au client (et prélevée si le modèle le prévoit).'
            : 'La facture de la période en cours est générée tout de suite en brouillon.'}{' '}
          La date de la prochaine facture passe ensuite à la période suivante.
        </p>
        <ActionForm action={runTemplateAction.bind(null, id)} label="Générer la facture" pendingLabel="Génération…" className="btn btn-primary" />
      </details>
      <details className="notice notice-warning">
        <summary>Supprimer le modèle…</summary>
        <p>Le modèle et son historique sont supprimés ; les factures qu’il a générées restent, inchangées.</p>
        <ActionForm action={deleteTemplateAction.bind(null, id)} label="Supprimer définitivement" pendingLabel="Suppression…" className="btn btn-danger" />
      </details>
    </section>
  );
}
