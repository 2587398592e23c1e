import type { Metadata } from 'next';
import Link from 'next/link';
import { Fragment } from 'react';
import { formatInstant } from '@/lib/platform/format';
import { requireStaffOrg } from '@/lib/platform/next';
import { listApprovers, listFields, listRequestedDocuments, verifyAuditChain } from '@/lib/domain/signature';
import { saveRequestedDocumentsAction } from '../actions';
import {
  ENVELOPE_STATUS_CHIPS,
  ENVELOPE_STATUS_LABELS,
  envelopeActions,
  envelopeTitle,
  SIGNER_STATUS_CHIPS,
  SIGNER_STATUS_LABELS,
  SOURCE_LABELS,
  signerName,
  VERIFICATION_LABELS,
} from '../labels';
import { loadEnvelopeOr404, orgMembers } from '../load';
import { Approvers } from './approvers';
import { EnvelopeActions } from './envelope-actions';
import { Evidence } from './evidence';
import { FieldPlacer } from './field-placer';
import { RequestedDocumentsEditor } from './requested-documents';
import { SignerLink } from './signer-link';
import { Timeline } from './timeline';
import { LinkButton, StatusChip } from '@/components/ui';

export const metadata: Metadata = { title: 'Enveloppe' };

/**
 * An envelope: its actions, each signer's status (and link), its approvers, and while a draft the fields placed on
 * its pages and the documents asked of the signers; its downloads and its audit chain, re-verified as it is shown.
 */
export default async function EnvelopePage({ params }: { params: Promise<{ id: string }> }) {
  const staff = await requireStaffOrg();
  const e = await loadEnvelopeOr404(staff, (await params).id);
  const [check, approvers, members, fields, requested] = await Promise.all([
    verifyAuditChain(staff.db, e.id),
    listApprovers(staff.db, staff.orgId, e.id),
    orgMembers(staff.db, staff.orgId),
    listFields(staff.db, staff.orgId, e.id),
    listRequestedDocuments(staff.db, staff.orgId, e.id),
  ]);
  const draft = e.status === 'draft';
  const can = envelopeActions(e.status);
  const pendingApprovals = approvers.data.filter((a) => !a.approved_at).length;
  const canApprove = draft && approvers.data.some((a) => a.user_id === staff.userId && !a.approved_at);
  const signers = e.signers.map((s) => ({ id: s.id, name: signerName(s) }));
  const nameOf = (id: string) => signers.find((s) => s.id === id)?.name ?? 'signataire';
  const base = `/v1/signature/envelopes/${e.id}`;

  const settings: Array<[string, React.ReactNode]> = [
    ['Document', SOURCE_LABELS[e.source_kind]],
    ['Ordre de signature', e.routing_mode === 'parallel' ? 'En parallèle' : 'À la suite, par ordre croissant'],
    ['Niveau', e.assurance_level === 'advanced' ? 'Avancé (code obligatoire)' : 'Simple'],
    ['Expire le', e.expires_at ? formatInstant(e.expires_at, { time: 'short' }) : 'jamais'],
    ['Étiquettes', e.labels.join(', ') || '—'],
    ['En copie', e.cc_recipients.join(', ') || '—'],
    ['Relances', `${e.reminder_count} sur ${e.reminder_max_count}, toutes les ${e.reminder_interval_hours ?? 48} heures`],
  ];
  if (e.message) settings.push(['Message', e.message]);
  if (e.document_hash) settings.push(['Empreinte du document', <code key="h">{e.document_hash}</code>]);

  return (
    <>
      <div className="page-header">
        <div>
          <p className="muted">
            <Link href="/signature">Signature électronique</Link> /
          </p>
          <h1>{envelopeTitle(e)}</h1>
          <div className="toolbar">
            <StatusChip tone={ENVELOPE_STATUS_CHIPS[e.status]} data-testid="envelope-status">
              {ENVELOPE_STATUS_LABELS[e.status]}
            </StatusChip>
            {e.completed_at && <span className="muted">le {formatInstant(e.completed_at, { time: 'short' })}</span>}
          </div>
        </div>
      </div>

      <EnvelopeActions id={e.id} status={e.status} canApprove={canApprove} pendingApprovals={draft ? pendingApprovals : 0} />

      {e.evidence && <Evidence id={e.id} evidence={e.evidence} completed={e.status === 'completed'} />}

      <section className="card" aria-labelledby="signers">
        <h2 id="signers">Signataires</h2>
        <ul className="signer-list">
          {e.signers.map((s) => (
            <li key={s.id}>
              <strong>{signerName(s)}</strong>{' '}
              <StatusChip tone={SIGNER_STATUS_CHIPS[s.status]} data-testid="signer-status">
                {SIGNER_STATUS_LABELS[s.status]}
              </StatusChip>
              <div className="muted">
                {VERIFICATION_LABELS[s.verification_method]}
                {s.phone ? ` · ${s.phone}` : ''}
                {e.routing_mode === 'sequential' ? ` · ordre ${s.routing_order}` : ''}
                {s.signed_at ? ` · signé le ${formatInstant(s.signed_at, { time: 'short' })}${s.signed_ip ? ` (IP ${s.signed_ip})` : ''}` : ''}
              </div>
              {can.links && (s.status === 'notified' || s.status === 'opened') && <SignerLink envelopeId={e.id} signerId={s.id} name={signerName(s)} />}
            </li>
          ))}
        </ul>
        {draft && (
          <p>
            <LinkButton href={`/signature/${e.id}/edit`}>
              Modifier les signataires et réglages
            </LinkButton>
          </p>
        )}
      </section>

      {(draft || approvers.data.length > 0) && <Approvers id={e.id} draft={draft} approvers={approvers.data} members={members} />}

      {draft ? (
        <section className="card" aria-labelledby="fields">
          <h2 id="fields">Champs à remplir</h2>
          <FieldPlacer
            envelopeId={e.id}
            documentUrl={`${base}/document`}
            signers={signers}
            initial={fields.data.map((f) => ({ key: f.id, signer_id: f.signer_id, type: f.type, page: f.page, x: f.x, y: f.y, width: f.width, height: f.height, required: f.required, label: f.label ?? '' }))}
          />
        </section>
      ) : (
        <section className="card" aria-labelledby="fields">
          <h2 id="fields">Champs</h2>
          <p>
            {fields.data.length === 0
              ? 'Aucun champ placé : chaque signataire signe sur la page de signature ajoutée au document.'
              : `${fields.data.length} champ${fields.data.length > 1 ? 's' : ''}, dont ${fields.data.filter((f) => f.filled_at).length} rempli${fields.data.filter((f) => f.filled_at).length > 1 ? 's' : ''}.`}
          </p>
        </section>
      )}

      {(draft || requested.data.length > 0) && (
        <section className="card" aria-labelledby="requested">
          <h2 id="requested">Pièces demandées aux signataires</h2>
          {draft ? (
            <RequestedDocumentsEditor
              action={saveRequestedDocumentsAction.bind(null, e.id)}
              signers={signers}
              initial={requested.data.map((r) => ({ signer_id: r.signer_id, label: r.label, description: r.description ?? '', required: r.required }))}
            />
          ) : (
            <ul>
              {requested.data.map((r) => (
                <li key={r.id}>
                  {r.label} ({nameOf(r.signer_id)}){r.required ? '' : ', facultative'}
                </li>
              ))}
            </ul>
          )}
        </section>
      )}

      <div className="grid-2">
        <section className="card" aria-labelledby="settings">
          <h2 id="settings">Réglages</h2>
          <dl className="props">
            {settings.map(([label, value]) => (
              <Fragment key={label}>
                <dt>{label}</dt>
                <dd>{value}</dd>
              </Fragment>
            ))}
          </dl>
        </section>
        <section className="card" aria-labelledby="downloads">
          <h2 id="downloads">Téléchargements</h2>
          <ul>
            <li>
              <a href={`${base}/document`} download>
                Document original (PDF)
              </a>
            </li>
            <li>
              {e.has_signed_document ? (
                <a href={`${base}/signed`} download>
                  Document signé et scellé (PDF)
                </a>
              ) : (
                <span className="muted">{e.status === 'completed' && e.evidence?.status !== 'sealed' ? `Document signé : ${e.evidence?.status === 'failed' ? 'le scellement a échoué (voir ci-dessus).' : 'scellement en cours.'}` : 'Document signé : disponible une fois toutes les signatures recueillies.'}</span>
              )}
            </li>
            <li>
              {e.has_proof ? (
                <a href={`${base}/proof`} download>
                  Dossier de preuve (PDF)
                </a>
              ) : (
                <span className="muted">{e.evidence ? `Dossier de preuve : ${e.evidence.status === 'failed' ? 'le scellement a échoué (voir ci-dessus).' : 'en cours de production.'}` : 'Dossier de preuve : disponible une fois l’enveloppe signée ou refusée.'}</span>
              )}
            </li>
          </ul>
        </section>
      </div>

      <Timeline events={e.audit_chain} check={check} signerName={nameOf} />

      <p className="muted">
        Créée le {formatInstant(e.created_at, { time: 'medium' })} · modifiée le {formatInstant(e.updated_at, { time: 'medium' })} · <code>{e.id}</code>
      </p>
    </>
  );
}
