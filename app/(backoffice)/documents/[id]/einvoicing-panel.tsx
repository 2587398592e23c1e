import type { Db } from '@/db/client';
import type { BillingDocument } from '@/lib/domain/documents';
import { lifecycleLog, loadTransmission } from '@/lib/domain/einvoicing';
import { formatInstant } from '@/lib/platform/format';
import { ISSUER_LABELS, lifecycleChip, lifecycleLabel, TRANSMISSION_CHIPS, TRANSMISSION_LABELS } from '../einvoicing-labels';
import { refreshLifecycleAction } from './einvoicing-actions';
import { RefreshLifecycle } from './refresh-lifecycle';
import { RetryTransmission } from './retry-transmission';
import { DataTable, StatusChip } from '@/components/ui';

/**
 * « Facturation électronique » on a finalized invoice's page: its transmission to the PA (status, flow id, the
 * buyer's address, the reason of a failure and the retry) and its lifecycle timeline as the PA reported it, with the
 * statuses the org sent (212 Encaissée). « Actualiser » asks the PA now instead of waiting for the 5-minute poll.
 */
export async function EInvoicingPanel({ db, orgId, doc }: { db: Db; orgId: string; doc: BillingDocument }) {
  if (!doc.finalized_at || doc.type === 'devis') return null;
  const [transmission, log] = await Promise.all([loadTransmission(db, orgId, doc.id), lifecycleLog(db, orgId, doc.id)]);
  if (doc.transmission_status === 'not_required' && !transmission && log.length === 0) {
    return (
      <section className="card" aria-label="Facturation électronique">
        <h2>Facturation électronique</h2>
        <p className="muted" data-testid="transmission-status">
          Non concernée : ce document ne passe pas par la plateforme agréée (facturation électronique désactivée, ou client qui n’est pas
          une entreprise française).
        </p>
      </section>
    );
  }
  return (
    <section className="card" aria-label="Facturation électronique">
      <h2>Facturation électronique</h2>
      <dl className="props">
        <dt>Transmission</dt>
        <dd>
          <StatusChip tone={TRANSMISSION_CHIPS[doc.transmission_status]} data-testid="transmission-status">
            {TRANSMISSION_LABELS[doc.transmission_status]}
          </StatusChip>
        </dd>
        <dt>Identifiant du flux</dt>
        <dd>{doc.transmission_id ? <code>{doc.transmission_id}</code> : <span className="muted">pas encore attribué</span>}</dd>
        {transmission?.buyer_address && (
          <>
            <dt>Adresse du client</dt>
            <dd>
              <code>{transmission.buyer_address}</code>
            </dd>
          </>
        )}
        {transmission && transmission.attempts > 0 && (
          <>
            <dt>Tentatives</dt>
            <dd>{transmission.attempts}</dd>
          </>
        )}
        {doc.lifecycle_status && (
          <>
            <dt>Cycle de vie</dt>
            <dd>
              <StatusChip tone={lifecycleChip(doc.lifecycle_status)} data-testid="lifecycle-status">
                {lifecycleLabel(doc.lifecycle_status)}
              </StatusChip>
              {doc.lifecycle_reason && <span> — {doc.lifecycle_reason}</span>}
            </dd>
          </>
        )}
      </dl>
      {transmission?.last_error && doc.transmission_status !== 'sent' && (
        <p className={doc.transmission_status === 'failed' ? 'form-error' : 'notice notice-warning'} role="alert" data-testid="transmission-error">
          {doc.transmission_status === 'failed' ? 'Échec : ' : 'Dernière erreur (nouvel essai prévu) : '}
          {transmission.last_error}
        </p>
      )}
      {doc.transmission_status === 'failed' && !transmission?.last_error && (
        <p className="form-error" role="alert" data-testid="transmission-error">
          Échec : {doc.render_status === 'failed' ? 'le PDF Factur-X n’a pas pu être généré (voir la section PDF).' : 'la facture n’a pas pu être transmise.'}
        </p>
      )}
      {doc.transmission_status === 'failed' && <RetryTransmission documentId={doc.id} />}
      {['pending', 'sending', 'sent'].includes(doc.transmission_status) && <RefreshLifecycle action={refreshLifecycleAction.bind(null, doc.id)} />}
      {log.length > 0 && (
        <DataTable
          label="Cycle de vie de la facture électronique"
          columns={[
            { key: 'date', header: 'Date', cell: (e) => formatInstant(e.occurred_at, { time: 'short' }) },
            {
              key: 'statut',
              header: 'Statut',
              cell: (e) => (
                <StatusChip tone={lifecycleChip(e.token)}>
                  {e.code} {lifecycleLabel(e.token)}
                </StatusChip>
              ),
            },
            { key: 'emis_par', header: 'Émis par', cell: (e) => ISSUER_LABELS[e.issuer_role] ?? e.issuer_role },
            { key: 'motif', header: 'Motif', cell: (e) => [e.reason_code, e.reason].filter(Boolean).join(' — ') || <span className="muted">—</span> },
            { key: 'montant', header: 'Montant', money: (e) => e.amount_cents },
          ]}
          rows={log}
          rowKey={(e) => `${e.occurred_at.toISOString()}-${e.code}-${e.direction}`}
        />
      )}
    </section>
  );
}
