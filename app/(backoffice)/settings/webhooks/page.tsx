import type { Metadata } from 'next';
import Link from 'next/link';
import { EmptyState, LinkButton, StatusChip, SubmitButton } from '@/components/ui';
import { EVENT_CATALOGUE, EVENT_TYPES } from '@/lib/platform/events';
import { formatInstant } from '@/lib/platform/format';
import { requireStaffOrg } from '@/lib/platform/next';
import { DISABLED_REASON_LABELS, eventLabel } from '@/lib/platform/i18n';
import { listEndpoints } from '@/lib/domain/webhooks';
import { createEndpointAction, deleteEndpointAction, rotateSecretAction, sendTestAction, toggleEndpointAction } from './actions';
import { ButtonForm, CreateEndpointForm, RotateSecretForm } from './endpoint-forms';

export const metadata: Metadata = { title: 'Webhooks' };

/** The catalogue's tokens by owning module, in catalogue order: the event picker's groups. */
function eventGroups(): Array<[string, string[]]> {
  const groups = new Map<string, string[]>();
  for (const type of EVENT_TYPES) groups.set(EVENT_CATALOGUE[type].owner, [...(groups.get(EVENT_CATALOGUE[type].owner) ?? []), type]);
  return [...groups];
}

export default async function WebhooksPage() {
  const staff = await requireStaffOrg();
  const { data: endpoints } = await listEndpoints(staff.db, staff.orgId, { limit: 100 });
  const canWrite = staff.role === 'owner' || staff.role === 'admin';
  return (
    <>
      <div className="page-header">
        <h1>Webhooks</h1>
      </div>
      <p className="muted">
        Paraphe envoie chaque événement choisi (requête POST signée selon Standard Webhooks) aux adresses ci-dessous, et réessaie pendant environ 28 h en
        cas d’échec. La <Link href="/docs/api#tag/webhook-events">référence API</Link> décrit chaque événement, ses en-têtes et un exemple de contenu.
      </p>
      {canWrite && (
        <section className="card">
          <h2>Nouveau webhook</h2>
          <CreateEndpointForm action={createEndpointAction} groups={eventGroups()} />
        </section>
      )}
      <section className="card">
        <h2>Webhooks de l’organisation</h2>
        {endpoints.length === 0 ? (
          <EmptyState>Aucun webhook pour l’instant.</EmptyState>
        ) : (
          <div className="stack">
            {endpoints.map((ep) => (
              <article className="card" key={ep.id} data-testid="webhook-endpoint">
                <dl className="props">
                  <dt>URL</dt>
                  <dd>
                    <code>{ep.url}</code>
                  </dd>
                  <dt>État</dt>
                  <dd>
                    {ep.enabled ? (
                      <StatusChip tone="chip-green">actif</StatusChip>
                    ) : (
                      <StatusChip tone="chip-grey">{ep.disabled_reason ? (DISABLED_REASON_LABELS[ep.disabled_reason] ?? 'désactivé') : 'désactivé'}</StatusChip>
                    )}
                  </dd>
                  <dt>Événements</dt>
                  <dd>{ep.events.map(eventLabel).join(', ')}</dd>
                  <dt>Créé le</dt>
                  <dd>{formatInstant(ep.created_at)}</dd>
                </dl>
                <div className="row-actions">
                  <LinkButton small href={`/settings/webhooks/${ep.id}`}>
                    Journal des envois
                  </LinkButton>
                  {canWrite && (
                    <>
                      <form action={toggleEndpointAction}>
                        <input type="hidden" name="id" value={ep.id} />
                        <input type="hidden" name="enabled" value={ep.enabled ? 'false' : 'true'} />
                        <SubmitButton variant="plain" small>{ep.enabled ? 'Désactiver' : 'Activer'}</SubmitButton>
                      </form>
                      <ButtonForm action={sendTestAction.bind(null, ep.id)} label="Envoyer un test" />
                      <RotateSecretForm action={rotateSecretAction.bind(null, ep.id)} />
                      <form action={deleteEndpointAction}>
                        <input type="hidden" name="id" value={ep.id} />
                        <SubmitButton variant="danger" small>Supprimer</SubmitButton>
                      </form>
                    </>
                  )}
                </div>
              </article>
            ))}
          </div>
        )}
      </section>
    </>
  );
}
