import { formatInstant } from '@/lib/platform/format';
import { AUDIT_EVENT_LABELS, CHAIN_BREAK_LABELS } from '../labels';

interface AuditEvent {
  id: string;
  seq_index: number;
  event_type: string;
  event_data: unknown;
  signer_id: string | null;
  occurred_at: string;
  content_hash: string;
}

/** What an event concerns, in a few words: who (the signer), from where (IP). */
function detail(e: AuditEvent, signerName: (id: string) => string): string {
  const parts: string[] = [];
  if (e.signer_id) parts.push(signerName(e.signer_id));
  const data = (e.event_data ?? {}) as Record<string, unknown>;
  if (typeof data.reason === 'string') parts.push(`motif : ${data.reason}`);
  if (typeof data.ip === 'string' && data.ip !== 'unknown') parts.push(`IP ${data.ip}`);
  return parts.join(' · ');
}

/**
 * The audit chain, oldest first, with the result of its re-verification (lib/domain/signature's verifyAuditChain, run as
 * the page is served): « Chaîne vérifiée », or the first event that does not verify and why.
 */
export function Timeline({
  events,
  check,
  signerName,
}: {
  events: AuditEvent[];
  check: { ok: boolean; count: number; first_broken: { index: number; reason: string } | null };
  signerName: (id: string) => string;
}) {
  return (
    <section className="card" aria-labelledby="timeline">
      <h2 id="timeline">Historique et preuves</h2>
      {check.ok ? (
        <p className="notice notice-success" role="status" data-testid="chain-status">
          ✓ Chaîne vérifiée : {check.count} événement{check.count > 1 ? 's' : ''}, chacun scellé par l’empreinte du précédent.
        </p>
      ) : (
        <p className="notice notice-warning" role="alert" data-testid="chain-status">
          Chaîne rompue à l’événement n° {(check.first_broken?.index ?? 0) + 1} : {CHAIN_BREAK_LABELS[check.first_broken?.reason ?? ''] ?? check.first_broken?.reason}.
        </p>
      )}
      <ol className="timeline">
        {events.map((e) => (
          <li key={e.id}>
            <strong>{AUDIT_EVENT_LABELS[e.event_type] ?? e.event_type}</strong> <span className="muted">{formatInstant(e.occurred_at, { time: 'medium' })}</span>
            {detail(e, signerName) && <div>{detail(e, signerName)}</div>}
            <div className="muted">
              <code title="Empreinte SHA-256 de l’événement">{e.content_hash}</code>
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}
