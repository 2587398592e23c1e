import { Fragment } from 'react';
import type { EnvelopeEvidence } from '@/lib/domain/signature';
import { formatInstant } from '@/lib/platform/format';
import { ActionForm, StatusChip } from '@/components/ui';
import { retrySealAction } from '../actions';
import { EVIDENCE_ERROR_LABELS, EVIDENCE_STATUS_CHIPS, EVIDENCE_STATUS_LABELS } from '../labels';

/**
 * The seal of a finished envelope while it is not done (issue 33): under way (with the last cause when an attempt
 * failed), or failed for good with its cause and « Relancer le scellement ». Nothing once sealed: the downloads say it.
 */
export function Evidence({ id, evidence, completed }: { id: string; evidence: EnvelopeEvidence; completed: boolean }) {
  if (evidence.status === 'sealed') return null;
  const failed = evidence.status === 'failed';
  const rows: Array<[string, string]> = [['Tentatives', String(evidence.attempts)]];
  if (evidence.error_code) rows.unshift(['Cause', EVIDENCE_ERROR_LABELS[evidence.error_code]]);
  if (evidence.failed_at) rows.push(['Dernier échec', formatInstant(evidence.failed_at, { time: 'short' })]);
  return (
    <section className="card" aria-labelledby="evidence">
      <h2 id="evidence">
        Scellement{' '}
        <StatusChip tone={EVIDENCE_STATUS_CHIPS[evidence.status]} data-testid="evidence-status">
          {EVIDENCE_STATUS_LABELS[evidence.status]}
        </StatusChip>
      </h2>
      <p className={failed ? 'notice notice-warning' : 'muted'} role={failed ? 'alert' : undefined}>
        {failed
          ? `Le ${completed ? 'document signé et le dossier de preuve n’ont' : 'dossier de preuve n’a'} pas pu être produit${completed ? 's' : ''}, malgré toutes les tentatives. ${completed ? 'Les signataires n’ont pas encore reçu leur exemplaire. ' : ''}Corrigez la cause ci-dessous, puis relancez le scellement.`
          : `Le ${completed ? 'document signé et le dossier de preuve sont' : 'dossier de preuve est'} en cours de production.${evidence.error_code ? ' Une tentative a échoué ; une nouvelle est prévue.' : ''}`}
      </p>
      {(failed || evidence.error_code) && (
        <dl className="props">
          {rows.map(([label, value]) => (
            <Fragment key={label}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </Fragment>
          ))}
        </dl>
      )}
      {failed && <ActionForm action={retrySealAction.bind(null, id)} label="Relancer le scellement" pendingLabel="Relance…" variant="primary" />}
    </section>
  );
}
