import type { Metadata } from 'next';
import Link from 'next/link';
import { Fragment } from 'react';
import { notFound } from 'next/navigation';
import { allowanceChargeLabel, type InboundAllowanceCharge, type InboundDetail, loadInbound, sentStatuses, signedAllowanceCharge } from '@/lib/domain/einvoicing';
import { ApiError } from '@/lib/platform/errors';
import { formatDay, formatInstant, formatMoneyIn, formatRate } from '@/lib/platform/format';
import { requireStaffOrg } from '@/lib/platform/next';
import { acceptInboundAction, disputeInboundAction, refuseInboundAction } from '../actions';
import { answerLabel, FORMAT_LABELS, PARSE_STATUS_LABELS, REFUSAL_REASON_LABELS } from '../labels';
import { AnswerForms } from './answer-forms';
import { DataTable, DownloadButton, StatusChip } from '@/components/ui';

export const metadata: Metadata = { title: 'Facture reçue' };

interface Line {
  description: string;
  quantity: string | null;
  unit_price: string | null;
  vat_rate: string | null;
  total_ht: number;
  allowances_charges?: InboundAllowanceCharge[];
}

/** A row of the lines table: a line, or one of its allowances or charges (already in the line's total, shown under it). */
type Row = { line: Line; extra?: undefined } | { line?: undefined; extra: InboundAllowanceCharge };

const frame = { width: '100%', height: '80vh', border: '1px solid var(--line)', borderRadius: 'var(--radius)', background: '#fff' } as const;

/** One received invoice: its readable PDF beside the fields read from it, its answers, and the actions. */
export default async function ReceivedInvoicePage({ params }: { params: Promise<{ id: string }> }) {
  const staff = await requireStaffOrg();
  const { id } = await params;
  const row = await loadInbound(staff.db, staff.orgId, id).catch((err: unknown) => {
    if (err instanceof ApiError && err.status === 404) notFound();
    throw err;
  });
  const history = await sentStatuses(staff.db, staff.orgId, row.id);
  const detail = (row.parsed ?? {}) as InboundDetail;
  const money = (cents: number | null | undefined) => (cents === null || cents === undefined ? '—' : formatMoneyIn(cents, row.currency));
  const status = PARSE_STATUS_LABELS[row.parse_status];
  const answer = answerLabel(row.lifecycle_status);
  const decided = row.lifecycle_status === 'approuvee' || row.lifecycle_status === 'refusee';
  const pdfUrl = `/v1/invoices/inbound/${row.id}/pdf`;
  const lines = (detail.lines ?? []) as Line[];
  const rows: Row[] = lines.flatMap((line): Row[] => [{ line }, ...(line.allowances_charges ?? []).map((extra) => ({ extra }))]);
  const documentLevel = (detail.allowances_charges ?? []) as InboundAllowanceCharge[];
  const signedMoney = (cents: number) => (cents > 0 ? `+${money(cents)}` : money(cents));
  const title = `${detail.document_type === 'credit_note' ? 'Avoir reçu' : 'Facture reçue'} ${row.invoice_number ?? ''}`.trim();

  return (
    <>
      <p>
        <Link href="/invoices/received">← Factures reçues</Link>
      </p>
      <div className="page-header">
        <h1>{title}</h1>
        <div className="actions">
          <StatusChip tone={status.chip}>{status.label}</StatusChip>
          <StatusChip tone={answer.chip}>{answer.label}</StatusChip>
        </div>
      </div>

      <div className="grid-2">
        <section className="card" aria-labelledby="pdf-title">
          <h2 id="pdf-title">Document</h2>
          {row.pdf_storage_key ? (
            <>
              <p>
                <DownloadButton small href={`${pdfUrl}?download=true`}>
                  Télécharger le PDF
                </DownloadButton>
              </p>
              <iframe src={pdfUrl} title={`PDF de la ${title.toLowerCase()}`} style={frame} />
            </>
          ) : row.parse_status === 'pending' ? (
            <p className="muted">Le fichier reçu est en cours de lecture.</p>
          ) : (
            <p className="muted">Pas de PDF lisible : le fichier XML reçu n’a pas pu être lu. Il est conservé tel quel.</p>
          )}
        </section>

        <div className="stack">
          <section className="card" aria-labelledby="fields-title">
            <h2 id="fields-title">Données lues</h2>
            {row.parse_status === 'parse_failed' && (
              <div className="notice notice-warning" role="status">
                Le fichier n’a pas pu être lu : {row.parse_error}
              </div>
            )}
            <dl className="props">
              <dt>Fournisseur</dt>
              <dd>{row.seller_name ?? '—'}</dd>
              <dt>SIREN</dt>
              <dd>{row.sender_siren ?? '—'}</dd>
              <dt>Numéro</dt>
              <dd>{row.invoice_number ?? '—'}</dd>
              <dt>Date d’émission</dt>
              <dd>{row.issue_date ? formatDay(row.issue_date) : '—'}</dd>
              <dt>Échéance</dt>
              <dd>{row.due_date ? formatDay(row.due_date) : '—'}</dd>
              <dt>Total HT</dt>
              <dd>{money(row.total_ht)}</dd>
              <dt>TVA</dt>
              <dd>{money(row.total_vat)}</dd>
              <dt>Total TTC</dt>
              <dd>{money(row.total_ttc)}</dd>
              <dt>Format</dt>
              <dd>{row.format ? FORMAT_LABELS[row.format] : '—'}</dd>
              <dt>Reçue par la plateforme</dt>
              <dd>{formatInstant(row.received_at)}</dd>
              <dt>Identifiant du flux</dt>
              <dd>
                <code>{row.flow_id}</code>
              </dd>
            </dl>
          </section>

          {lines.length > 0 && (
            <section className="card" aria-labelledby="lines-title">
              <h2 id="lines-title">Lignes</h2>
              <DataTable
                label="Lignes de la facture reçue"
                columns={[
                  { key: 'designation', header: 'Désignation', cell: (r) => (r.line ? r.line.description : <span className="muted">{allowanceChargeLabel(r.extra)}</span>) },
                  { key: 'qte', header: 'Qté', num: true, cell: (r) => (r.line ? (r.line.quantity ?? '—') : '') },
                  { key: 'tva', header: 'TVA', num: true, cell: (r) => (r.line ? (r.line.vat_rate ? formatRate(r.line.vat_rate) : '—') : '') },
                  {
                    key: 'total_ht',
                    header: 'Total HT',
                    num: true,
                    cell: (r) => (r.line ? money(r.line.total_ht) : <span className="muted">({signedMoney(signedAllowanceCharge(r.extra))})</span>),
                  },
                ]}
                rows={rows}
                rowKey={(_, i) => i}
              />
              {rows.length > lines.length && <p className="muted">Entre parenthèses : les remises et frais d’une ligne, déjà compris dans son total HT.</p>}
              {documentLevel.length > 0 && (
                <dl className="totals" data-testid="received-recap">
                  <dt>Total des lignes</dt>
                  <dd>{money(detail.line_total ?? lines.reduce((sum, l) => sum + l.total_ht, 0))}</dd>
                  {documentLevel.map((a, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: read-only, in the document's order
                    <Fragment key={i}>
                      <dt>{allowanceChargeLabel(a)}</dt>
                      <dd>{signedMoney(signedAllowanceCharge(a))}</dd>
                    </Fragment>
                  ))}
                  <dt className="grand">Total HT</dt>
                  <dd className="grand">{money(row.total_ht)}</dd>
                </dl>
              )}
            </section>
          )}

          <section className="card" aria-labelledby="answer-title">
            <h2 id="answer-title">Réponse au fournisseur</h2>
            {history.length > 0 && (
              <ol className="timeline" aria-label="Réponses envoyées">
                {history.map((h) => (
                  <li key={h.id}>
                    <strong>{answerLabel(h.token).label}</strong> ({h.code}) — {formatInstant(h.occurred_at)}
                    {h.reason_code && <div>Motif : {REFUSAL_REASON_LABELS[h.reason_code] ?? h.reason_code}</div>}
                    {h.reason && <div>{h.reason}</div>}
                  </li>
                ))}
              </ol>
            )}
            {decided ? (
              <p className="muted">La réponse est définitive.</p>
            ) : (
              <AnswerForms
                accept={acceptInboundAction.bind(null, row.id)}
                refuse={refuseInboundAction.bind(null, row.id)}
                dispute={disputeInboundAction.bind(null, row.id)}
                canDecide={!decided}
                canDispute={row.lifecycle_status !== 'en_litige'}
              />
            )}
          </section>
        </div>
      </div>
    </>
  );
}
