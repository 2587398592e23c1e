import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { ApiError } from '@/lib/platform/errors';
import { formatInstant } from '@/lib/platform/format';
import { requireStaffOrg } from '@/lib/platform/next';
import { DELIVERY_STATUS_LABELS, eventLabel } from '@/lib/platform/i18n';
import { deliveryLog } from '@/lib/domain/webhooks';
import { redeliverAction } from '../actions';
import { ButtonForm } from '../endpoint-forms';
import { EmptyState, LinkButton } from '@/components/ui';

export const metadata: Metadata = { title: 'Journal des envois' };

const STATUS_CHIPS: Record<string, string> = { pending: 'chip chip-amber', succeeded: 'chip chip-green', failed: 'chip chip-red' };

async function load(db: Parameters<typeof deliveryLog>[0], orgId: string, id: string, cursor: string | undefined) {
  try {
    return await deliveryLog(db, orgId, id, { limit: 50, cursor });
  } catch (err) {
    // Another org's endpoint, a malformed id or a stale cursor: nothing to show here.
    if (err instanceof ApiError && (err.status === 404 || err.code === 'invalid_cursor' || err.code === 'validation_error')) notFound();
    throw err;
  }
}

export default async function DeliveryLogPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<{ cursor?: string }> }) {
  const staff = await requireStaffOrg();
  const { id } = await params;
  const { cursor } = await searchParams;
  if (!/^[0-9a-f-]{36}$/i.test(id)) notFound();
  const log = await load(staff.db, staff.orgId, id, cursor);
  const canWrite = staff.role === 'owner' || staff.role === 'admin';
  return (
    <>
      <div className="page-header">
        <h1>Journal des envois</h1>
        <div className="actions">
          <LinkButton href="/settings/webhooks">
            Retour aux webhooks
          </LinkButton>
        </div>
      </div>
      {/* A long URL has no break opportunity of its own: it wraps anywhere rather than widening a phone's page. */}
      <p style={{ overflowWrap: 'anywhere' }}>
        <code>{log.endpoint.url}</code>
      </p>
      {log.data.length === 0 ? (
        <EmptyState>Aucun envoi pour l’instant.</EmptyState>
      ) : (
        <div className="stack">
          {log.data.map((d) => (
            <article className="card" key={d.id} data-testid="webhook-delivery">
              <dl className="props">
                <dt>Événement</dt>
                <dd>
                  {eventLabel(d.event_type)} <code>{d.event_type}</code>
                </dd>
                <dt>État</dt>
                <dd>
                  <span className={STATUS_CHIPS[d.status]}>{DELIVERY_STATUS_LABELS[d.status]}</span> · {d.attempt} tentative{d.attempt > 1 ? 's' : ''}
                </dd>
                <dt>Dernière réponse</dt>
                <dd>
                  {d.response_status !== null ? `HTTP ${d.response_status}` : (d.error ?? '—')}
                  {d.response_duration_ms !== null && ` en ${d.response_duration_ms} ms`}
                  {d.last_attempt_at && `, le ${formatInstant(d.last_attempt_at)}`}
                </dd>
                {d.next_attempt_at && (
                  <>
                    <dt>Prochain essai</dt>
                    <dd>{formatInstant(d.next_attempt_at)}</dd>
                  </>
                )}
              </dl>
              <details>
                <summary>Contenu envoyé (webhook-id {d.event_id})</summary>
                <pre className="prewrap" style={{ overflowWrap: "anywhere" }}>{d.body ? JSON.stringify(d.body, null, 2) : '—'}</pre>
              </details>
              {d.response_body && (
                <details>
                  <summary>Réponse reçue (1 Ko au plus)</summary>
                  <pre className="prewrap" style={{ overflowWrap: "anywhere" }}>{d.response_body}</pre>
                </details>
              )}
              {canWrite && <ButtonForm action={redeliverAction} label="Renvoyer" hidden={{ id: log.endpoint.id, delivery_id: d.id }} />}
            </article>
          ))}
        </div>
      )}
      {log.meta.next_cursor && (
        <p>
          <LinkButton href={`/settings/webhooks/${log.endpoint.id}?cursor=${encodeURIComponent(log.meta.next_cursor)}`}>
            Envois plus anciens
          </LinkButton>
        </p>
      )}
    </>
  );
}
