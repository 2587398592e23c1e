import Link from 'next/link';
import type { Db } from '@/db/client';
import { listDocuments, paidByDocument } from '@/lib/domain/documents/list-documents';
import { DocumentListQuery } from '@/lib/domain/documents/schemas';
import { formatDay, formatMoney } from '@/lib/platform/format';
import { recentPaymentsOfContact } from '@/lib/domain/payments/payments';
import { clientSummary } from '@/lib/domain/stats/stats';
import { documentName, PAYMENT_METHOD_LABELS, paymentState, STATUS_CHIPS, STATUS_LABELS, signedAmount, TYPE_LABELS } from '../../documents/labels';

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
            <Link className="btn" href={`/documents/new?type=devis&contact_id=${contactId}`}>
              Nouveau devis pour ce client
            </Link>
            <Link className="btn btn-primary" href={`/documents/new?type=facture&contact_id=${contactId}`}>
              Nouvelle facture pour ce client
            </Link>
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
              <span className="chip chip-red">{formatMoney(summary.overdue.amount)}</span>
            </dd>
          </>
        )}
      </dl>

      <h3>Derniers documents</h3>
      {page.data.length === 0 ? (
        <p className="muted">Aucun devis ni facture pour ce client.</p>
      ) : (
          <table className="table" aria-label="Documents du client">
            <thead>
              <tr>
                <th>Numéro</th>
                <th>Type</th>
                <th>Émis le</th>
                <th>Statut</th>
                <th className="num">Total TTC</th>
              </tr>
            </thead>
            <tbody>
              {page.data.map((d) => {
                const partly = paymentState(d, paid.get(d.id) ?? 0);
                return (
                  <tr key={d.id}>
                    <td>
                      <Link href={`/documents/${d.id}`}>{d.number ?? <em>{documentName(d)}</em>}</Link>
                    </td>
                    <td>{TYPE_LABELS[d.type]}</td>
                    <td>{formatDay(d.issue_date)}</td>
                    <td>{partly ? <span className="chip chip-amber">{partly}</span> : <span className={`chip ${STATUS_CHIPS[d.status]}`}>{STATUS_LABELS[d.status]}</span>}</td>
                    <td className="num">{formatMoney(signedAmount(d, d.total_ttc))}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
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
