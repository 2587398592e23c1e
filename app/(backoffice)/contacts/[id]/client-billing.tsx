import Link from 'next/link';
import type { Db } from '@/db/client';
import { DocumentListQuery, listDocuments, paidByDocument } from '@/lib/domain/documents';
import { formatDay, formatMoney } from '@/lib/platform/format';
import { recentPaymentsOfContact } from '@/lib/domain/payments';
import { clientSummary } from '@/lib/domain/stats';
import { documentName, PAYMENT_METHOD_LABELS, paymentState, STATUS_CHIPS, signedAmount, statusLabel, TYPE_LABELS } from '../../documents/labels';
import { DataTable, LinkButton, StatusChip } from '@/components/ui';

const SHOWN = 10;

/**
 * A client's account on their page: what was invoiced, paid and is still owed (GET /v1/invoices/client-summary),
 * their latest documents and payments, and a quote or an invoice started for them.
 */
export async function ClientBilling({ db, orgId, contactId, active }: { db: Db; orgId: string; contactId: string; active: boolean }) {
  const [summary, page, payments] = await Promise.all([
    clientSummary(db, orgId, contactId),
    listDocuments(db, orgId, DocumentListQuery.parse({ contact_id: contactId, limit: String(SHOWN) })),
    recentPaymentsOfContact(db, orgId, contactId),
  ]);
  const paid = await paidByDocument(
    db,
    orgId,
    page.data.map((d) => d.id),
  );
  const invoicedTtc = summary.invoiced.total_ttc - summary.credited.total_ttc;
  return (
    <section className="card" aria-label="Compte client">
      <div className="page-header">
        <h2>Compte client</h2>
        {active && (
          <div className="actions">
            <LinkButton href={`/documents/new?type=devis&contact_id=${contactId}`}>
              Nouveau devis pour ce client
            </LinkButton>
            <LinkButton variant="primary" href={`/documents/new?type=facture&contact_id=${contactId}`}>
              Nouvelle facture pour ce client
            </LinkButton>
          </div>
        )}
      </div>
      <dl className="totals" data-testid="client-account">
        <dt>Facturé TTC, avoirs déduits</dt>
        <dd>{formatMoney(invoicedTtc)}</dd>
        <dt>Encaissé</dt>
        <dd>{formatMoney(summary.paid.amount)}</dd>
        <dt className="grand">Reste dû</dt>
        <dd className="grand">{formatMoney(summary.outstanding.amount)}</dd>
        {summary.overdue.amount > 0 && (
          <>
            <dt>dont en retard</dt>
            <dd>
              <StatusChip tone="chip-red">{formatMoney(summary.overdue.amount)}</StatusChip>
            </dd>
          </>
        )}
      </dl>

      <h3>Derniers documents</h3>
      {page.data.length === 0 ? (
        <p className="muted">Aucun devis ni facture pour ce client.</p>
      ) : (
        <DataTable
          label="Documents du client"
          columns={[
            { key: 'number', header: 'Numéro', cell: (d) => <Link href={`/documents/${d.id}`}>{d.number ?? <em>{documentName(d)}</em>}</Link> },
            { key: 'type', header: 'Type', cell: (d) => TYPE_LABELS[d.type] },
            { key: 'issue_date', header: 'Émis le', cell: (d) => formatDay(d.issue_date) },
            {
              key: 'status',
              header: 'Statut',
              cell: (d) => {
                const partly = paymentState(d, paid.get(d.id) ?? 0);
                return partly ? <StatusChip tone="chip-amber">{partly}</StatusChip> : <StatusChip tone={STATUS_CHIPS[d.status]}>{statusLabel(d)}</StatusChip>;
              },
            },
            { key: 'total_ttc', header: 'Total TTC', money: (d) => signedAmount(d, d.total_ttc) },
          ]}
          rows={page.data}
          rowKey={(d) => d.id}
        />
      )}
      {page.meta.next_cursor && (
        <p>
          <Link href={`/documents?contact_id=${contactId}`}>Voir tous ses documents</Link>
        </p>
      )}

      <h3>Derniers paiements</h3>
      {payments.length === 0 ? (
        <p className="muted">Aucun paiement reçu.</p>
      ) : (
        <ul className="plain-list" aria-label="Paiements du client">
          {payments.map((p) => (
            <li key={p.id}>
              {formatDay(p.paid_at)} · <strong>{formatMoney(p.amount)}</strong> · {PAYMENT_METHOD_LABELS[p.method] ?? p.method}
              {p.document_number && (
                <>
                  {' '}
                  · <Link href={`/documents/${p.document_id}`}>{p.document_number}</Link>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
