import { randomUUID } from 'node:crypto';
import type { Metadata } from 'next';
import Link from 'next/link';
import { Fragment, Suspense } from 'react';
import { EmailLog } from '@/components/email/email-log';
import { PdfStatus } from '@/components/pdf/pdf-status';
import { ReminderLadder } from '@/components/reminders/reminder-ladder';
import { SendDocument } from '@/components/sending/send-document';
import { type BillingDocument, documentFlow, overdueAmong, remainingDue } from '@/lib/domain/documents';
import { todayParis } from '@/lib/platform/dates';
import { getInvoiceSettings } from '@/lib/domain/invoice-settings';
import { listOnlineRefunds, listPayments, type Payment, refundState } from '@/lib/domain/payments';
import { formatDay, formatDecimalAsTyped, formatInstant, formatMoney, formatRate } from '@/lib/platform/format';
import { requireStaffOrg } from '@/lib/platform/next';
import { computeTotals } from '@/lib/platform/money';
import { availableActions, cancelConsequences, closedNotice, creditNoteOf, defaultDepositPercentage, sendAllowed } from '../availability';
import {
  CREDIT_REASON_LABELS,
  documentName,
  FLOW_ROLE_LABELS,
  historyLabel,
  OPERATION_NATURE_LABELS,
  PAYMENT_PLAN_LABELS,
  STATUS_CHIPS,
  statusLabel,
  signedAmount,
  TYPE_LABELS,
  VAT_CATEGORY_LABELS,
  VAT_EXIGIBILITY_LABELS,
} from '../labels';
import { EInvoicingChip } from '../einvoicing-chip';
import { loadDocumentOr404 } from '../load';
import { cardRefundOf, documentActions, paymentDeletion, refundOf } from './bound-actions';
import { DocumentActions } from './document-actions';
import { DraftPreview } from './draft-preview';
import { EInvoiceCheck } from './einvoice-check';
import { EInvoicingPanel } from './einvoicing-panel';
import { ItemsTable } from './items-table';
import { OnlinePayment } from './online-payment';
import { PaymentsPanel } from './payments-panel';
import { RefundsPanel } from './refunds-panel';
import { VerifyChain } from './verify-chain';
import { DataTable, LinkButton, StatusChip } from '@/components/ui';

export const metadata: Metadata = { title: 'Document' };

function planText(doc: BillingDocument): string | null {
  const c = doc.payment_plan_config;
  if (doc.payment_plan_kind === 'none') return null;
  if (c && 'percentage' in c) return `${PAYMENT_PLAN_LABELS.deposit_then_balance} : ${formatDecimalAsTyped(c.percentage)} % d’acompte`;
  if (c && 'count' in c) return `${PAYMENT_PLAN_LABELS.installments} : ${c.count} échéances`;
  return PAYMENT_PLAN_LABELS[doc.payment_plan_kind];
}

export default async function DocumentPage({ params }: { params: Promise<{ id: string }> }) {
  const staff = await requireStaffOrg();
  const doc = await loadDocumentOr404(staff, (await params).id);
  const flow = await documentFlow(staff.db, staff.orgId, doc.id);
  const billed = doc.type === 'facture' || doc.type === 'acompte';
  const payments: Payment[] = billed && doc.finalized_at ? (await listPayments(staff.db, staff.orgId, doc.id, { limit: 100 })).data : [];
  const totalPaid = flow.documents.find((d) => d.id === doc.id)?.total_paid ?? 0;
  const today = todayParis();
  const can = availableActions(doc, flow.documents, today);
  const canSend = sendAllowed(doc, flow.documents, today);
  const actions = documentActions(doc.id);
  const items = doc.items ?? [];
  const groups = computeTotals(items).groups;
  const creditNote = billed ? creditNoteOf(doc, flow.documents) : null;
  // Refunds (negative payments) go on the invoice's finalized credit note: listed there and with the invoice's payments.
  const paymentsOf = async (id: string) => (await listPayments(staff.db, staff.orgId, id, { limit: 100 })).data;
  const creditRefunds = creditNote?.finalized_at ? await paymentsOf(creditNote.id) : [];
  const ownRefunds = doc.type === 'avoir' && doc.finalized_at ? await paymentsOf(doc.id) : [];
  const refundTo = billed && doc.finalized_at ? doc.id : doc.type === 'avoir' && doc.finalized_at ? doc.avoir_for_id : null;
  const refundable = refundTo ? await refundState(staff.db, staff.orgId, refundTo) : { refundable: 0, pending: 0, online: 0 };
  const onlineRefunds = refundTo ? (await listOnlineRefunds(staff.db, staff.orgId, refundTo, { limit: 100 })).data : [];
  // A fresh key per page load: a double submission of « Rembourser par carte » asks Stripe once.
  const refundView = refundTo ? { ...refundable, record: refundOf(refundTo), byCard: cardRefundOf(refundTo), idempotencyKey: randomUUID() } : null;
  // A draft invoice payable by transfer prints the seller's IBAN: without one, the client cannot pay it.
  const ibanMissing = billed && !doc.finalized_at && doc.payment_method === 'bank_transfer' && !(await getInvoiceSettings(staff.db, staff.orgId)).iban;
  // « en retard » by the one definition of the list, the dashboard and « À relancer » (overdueSql).
  const overdue = billed && (await overdueAmong(staff.db, staff.orgId, [doc.id], today)).has(doc.id);
  // A finalized quote or invoice can be wrapped in a signature envelope (the send refuses one refused, lapsed or cancelled since).
  const signable = (doc.type === 'devis' || doc.type === 'facture') && doc.finalized_at !== null && (doc.status === 'finalized' || doc.status === 'sent');
  const travels = doc.transmission_status !== 'not_required' || doc.lifecycle_status !== null;
  const byId = new Map(flow.documents.map((d) => [d.id, d]));
  const link = (id: string | null) => {
    const d = id ? byId.get(id) : undefined;
    return d ? <Link href={`/documents/${d.id}`}>{documentName(d)}</Link> : null;
  };

  // The document's terms, those that are set.
  const terms: Array<[string, React.ReactNode]> = [];
  const term = (label: string, value: React.ReactNode) => {
    if (value) terms.push([label, value]);
  };
  term('Client', doc.contact_name ? <Link href={`/contacts/${doc.contact_id}`}>{doc.contact_name}</Link> : 'Contact supprimé');
  term('Date d’émission', formatDay(doc.issue_date));
  if (doc.type === 'devis') term('Valable jusqu’au', formatDay(doc.validity_date) || '—');
  if (billed) term('Échéance', formatDay(doc.due_date) || '—');
  term('Date de la prestation', formatDay(doc.service_date));
  term('Conditions de paiement', doc.payment_terms);
  term('Moyen de paiement', doc.payment_method);
  term('Escompte', doc.discount_terms);
  term('Échéancier', planText(doc));
  term('Acompte demandé', doc.deposit_request_percentage && `${formatDecimalAsTyped(doc.deposit_request_percentage)} %`);
  term('Part du devis', doc.acompte_percentage && `${formatDecimalAsTyped(doc.acompte_percentage)} %`);
  term('Nature de l’opération', doc.operation_nature && OPERATION_NATURE_LABELS[doc.operation_nature]);
  term('Exigibilité de la TVA', doc.vat_exigibility && VAT_EXIGIBILITY_LABELS[doc.vat_exigibility]);
  term('Délai d’exécution', doc.execution_timeline);
  const a = doc.delivery_address;
  term('Livraison', a && [a.name, a.address, [a.postal_code, a.city].filter(Boolean).join(' '), a.country].filter(Boolean).join('\n'));
  term('Motif de l’avoir', doc.credit_reason_code && [CREDIT_REASON_LABELS[doc.credit_reason_code], doc.credit_reason_text].filter(Boolean).join(' — '));
  term('Issue du devis', link(doc.converted_from_id));
  term('Acompte sur le devis', link(doc.parent_devis_id));
  term('Avoir sur', link(doc.avoir_for_id));

  return (
    <>
      <div className="page-header">
        <div>
          <p className="muted">
            <Link href="/documents">Devis & factures</Link> /
          </p>
          <h1>
            {TYPE_LABELS[doc.type]} {doc.number ?? <span className="muted">(brouillon)</span>}
          </h1>
          <div className="toolbar">
            <StatusChip tone={STATUS_CHIPS[doc.status]} data-testid="document-status">
              {statusLabel(doc)}
            </StatusChip>
            {overdue && <StatusChip tone="chip-red">en retard</StatusChip>}
            {doc.finalized_at && <EInvoicingChip doc={doc} />}
            {doc.title && <span className="muted">{doc.title}</span>}
          </div>
        </div>
        {(doc.type === 'facture' || signable) && (
          <div className="actions">
            {signable && (
              <LinkButton href={`/signature/new?source=${doc.id}`}>
                Faire signer
              </LinkButton>
            )}
            {doc.type === 'facture' && (
              <LinkButton href={`/recurring/new?from=${doc.id}`}>
                Créer un modèle récurrent
              </LinkButton>
            )}
          </div>
        )}
      </div>

      {ibanMissing && (
        <div className="notice notice-warning" role="note">
          Cette facture est payable par virement, mais aucun IBAN n’est renseigné : elle ne dira pas au client où payer.{' '}
          <Link href="/settings/invoicing">Renseigner l’IBAN</Link> avant de la finaliser.
        </div>
      )}

      <DocumentActions
        doc={{ id: doc.id, type: doc.type, status: doc.status, number: doc.number, total_ttc: doc.total_ttc, items }}
        can={can}
        actions={actions}
        defaultDepositPercentage={defaultDepositPercentage(doc)}
        cancelConsequences={can.cancel ? cancelConsequences(doc, flow.documents, totalPaid) : []}
        closed={closedNotice(doc, can, canSend)}
      />

      {canSend && <SendDocument orgId={staff.orgId} documentId={doc.id} />}

      {/* An invoice that goes to the PA: its transmission and lifecycle near the top, where its badge points. */}
      {travels && <EInvoicingPanel db={staff.db} orgId={staff.orgId} doc={doc} />}

      <div className="grid-2">
        <section className="card">
          <h2>Document</h2>
          <dl className="props">
            {terms.map(([label, value]) => (
              <Fragment key={label}>
                <dt>{label}</dt>
                <dd>{value}</dd>
              </Fragment>
            ))}
          </dl>
        </section>
        <div>
          <section className="card" aria-label="Totaux">
            <h2>Totaux</h2>
            <dl className="totals">
              <dt>Total HT</dt>
              <dd data-testid="total-ht">{formatMoney(doc.total_ht)}</dd>
              {groups.map((g) => (
                <Fragment key={`${g.vat_category}|${g.vat_rate}`}>
                  <dt className="muted">
                    {g.vat_category === 'S' ? `TVA ${formatRate(g.vat_rate)}` : `${VAT_CATEGORY_LABELS[g.vat_category]} (${formatRate(g.vat_rate)})`} sur {formatMoney(g.base)}
                  </dt>
                  <dd className="muted">{formatMoney(g.vat)}</dd>
                </Fragment>
              ))}
              <dt>Total TVA</dt>
              <dd data-testid="total-tva">{formatMoney(doc.total_tva)}</dd>
              <dt className="grand">Total TTC</dt>
              <dd className="grand" data-testid="total-ttc">
                {formatMoney(doc.total_ttc)}
              </dd>
            </dl>
          </section>
          {doc.finalized_at ? (
            <section className="card" aria-label="Intégrité">
              <h2>Numérotation et intégrité</h2>
              <dl className="props">
                <dt>Numéro</dt>
                <dd data-testid="document-number">{doc.number}</dd>
                <dt>Finalisé le</dt>
                <dd>{formatInstant(doc.finalized_at, { time: 'medium' })}</dd>
              </dl>
              {/* The digests prove, they do not inform: folded, so that the first screen says what the document is. */}
              <details className="disclosure">
                <summary>Intégrité</summary>
                <p className="hint muted">
                  Le document finalisé est scellé : son empreinte est le SHA-256 de son contenu légal et de l’empreinte du document finalisé
                  précédent. Toute modification après coup, de ce document ou d’un précédent, rompt la chaîne — « Vérifier la chaîne » recalcule
                  toutes les empreintes de l’organisation pour le prouver.
                </p>
                <dl className="props">
                  <dt>Empreinte</dt>
                  <dd>
                    <code className="hash">{doc.content_hash}</code>
                  </dd>
                  <dt>Précédente</dt>
                  <dd>{doc.prev_hash ? <code className="hash">{doc.prev_hash}</code> : <span className="muted">aucune : premier document de la chaîne</span>}</dd>
                </dl>
                <VerifyChain />
              </details>
            </section>
          ) : (
            <section className="card">
              <h2>Numérotation</h2>
              <p className="muted">Brouillon sans numéro : il sera numéroté et scellé à sa finalisation.</p>
            </section>
          )}
        </div>
      </div>

      <section className="card" aria-label="Lignes">
        <h2>Lignes</h2>
        {items.length === 0 ? (
          <p className="muted">Aucune ligne.</p>
        ) : (
          <ItemsTable items={items} />
        )}
        {(doc.description || doc.notes) && (
          <dl className="props" style={{ marginTop: 12 }}>
            {doc.description && (
              <>
                <dt>Description</dt>
                <dd>{doc.description}</dd>
              </>
            )}
            {doc.notes && (
              <>
                <dt>Notes</dt>
                <dd>{doc.notes}</dd>
              </>
            )}
          </dl>
        )}
      </section>

      {!doc.finalized_at && doc.type !== 'devis' && (
        <section className="card" aria-label="Facture électronique">
          <h2>Facture électronique (Factur-X)</h2>
          <Suspense fallback={<p className="muted">Contrôle de la facture électronique…</p>}>
            <EInvoiceCheck db={staff.db} orgId={staff.orgId} documentId={doc.id} />
          </Suspense>
        </section>
      )}

      <section className="card" aria-label="PDF">
        <h2>PDF</h2>
        {doc.finalized_at ? (
          <PdfStatus documentId={doc.id} status={doc.render_status} />
        ) : (
          <>
            <p className="muted">Un brouillon n’a pas de PDF stocké : son aperçu porte la mention « brouillon ».</p>
            <DraftPreview documentId={doc.id} />
          </>
        )}
      </section>

      {!travels && <EInvoicingPanel db={staff.db} orgId={staff.orgId} doc={doc} />}

      {can.payments && (
        <PaymentsPanel
          record={actions.recordPayment}
          totalTtc={doc.total_ttc}
          totalPaid={totalPaid}
          remainingDue={remainingDue(doc, totalPaid)}
          payments={[...payments, ...creditRefunds]
            .sort((a, b) => b.paid_at.localeCompare(a.paid_at) || b.created_at.localeCompare(a.created_at))
            .map((p) => ({ ...p, remove: paymentDeletion(p.document_id, p.id), on: p.document_id === doc.id ? null : creditNote?.number }))}
          canRecord={can.recordPayment}
          today={today}
          creditNote={creditNote?.finalized_at ? { number: creditNote.number, total_ttc: creditNote.total_ttc } : null}
          refunds={refundView!}
          online={onlineRefunds}
        />
      )}
      {refundView && doc.type === 'avoir' && (ownRefunds.length > 0 || onlineRefunds.length > 0 || refundable.refundable + refundable.pending > 0) && (
        <RefundsPanel refunds={ownRefunds.map((p) => ({ ...p, remove: paymentDeletion(doc.id, p.id) }))} online={onlineRefunds} view={refundView} today={today} />
      )}

      <OnlinePayment db={staff.db} orgId={staff.orgId} documentId={doc.id} />

      <section className="card" aria-label="Parcours">
        <h2>Parcours</h2>
        <DataTable
          label="Documents liés"
          columns={[
            { key: 'role', header: 'Rôle', cell: (d) => FLOW_ROLE_LABELS[d.role] },
            {
              key: 'document',
              header: 'Document',
              cell: (d) => d.id === doc.id ? <strong>{documentName(d)}</strong> : <Link href={`/documents/${d.id}`}>{documentName(d)}</Link>,
            },
            { key: 'statut', header: 'Statut', cell: (d) => <StatusChip tone={STATUS_CHIPS[d.status]}>{statusLabel(d)}</StatusChip> },
            { key: 'emis_le', header: 'Émis le', cell: (d) => formatDay(d.issue_date) },
            { key: 'total_ttc', header: 'Total TTC', money: (d) => signedAmount(d, d.total_ttc) },
            {
              key: 'paye',
              header: 'Payé',
              num: true,
              cell: (d) => d.type === 'facture' || d.type === 'acompte' ? formatMoney(d.total_paid) : <span className="muted">—</span>,
            },
          ]}
          rows={flow.documents}
          rowKey={(d) => d.id}
          rowProps={(d) => ({ 'aria-current': d.id === doc.id ? 'true' : undefined, className: d.id === doc.id ? 'current' : undefined })}
        />
        <h2 style={{ marginTop: 16 }}>Historique</h2>
        <ol className="timeline" aria-label="Historique">
          {flow.history.map((h) => (
            <li key={`${h.at}-${h.event}-${h.document_id}-${h.payment_id ?? ''}`}>
              <span className="muted">{formatInstant(h.at, { time: 'medium' })}</span> — {TYPE_LABELS[h.document_type]} {h.number ?? '(brouillon)'} {historyLabel(h.document_type, h.event)}
              {h.amount !== null && ` : ${formatMoney(h.amount)}`}
              {h.paid_at && ` reçu le ${formatDay(h.paid_at)}`}
            </li>
          ))}
        </ol>
      </section>

      <ReminderLadder orgId={staff.orgId} documentId={doc.id} />

      <EmailLog orgId={staff.orgId} documentId={doc.id} />

      <p className="muted">
        Créé le {formatInstant(doc.created_at, { time: 'medium' })} · modifié le {formatInstant(doc.updated_at, { time: 'medium' })} · <code>{doc.id}</code>
      </p>
    </>
  );
}
