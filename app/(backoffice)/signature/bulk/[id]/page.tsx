import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { ApiError } from '@/lib/platform/errors';
import { formatInstant } from '@/lib/platform/format';
import { requireStaffOrg } from '@/lib/platform/next';
import { bulkBatchView } from '@/lib/domain/signature';
import { frenchError } from '@/lib/platform/i18n';
import { ENVELOPE_STATUS_LABELS } from '../../labels';
import { SignatureTabs } from '../../tabs';
import { DataTable } from '@/components/ui';

/** "recipients.2.email: must be an e-mail address" (the API's words, kept in the batch) in French. */
function frenchResult(error: string): string {
  const field = /^([\w.]+): /.exec(error)?.[1] ?? null;
  return frenchError({ code: 'validation_error', message: error, field });
}

export const metadata: Metadata = { title: 'Résultat de l’envoi groupé' };

/** One bulk send: each recipient in file order, its envelope (and where it stands now) or why it was not sent. */
export default async function SignatureBulkResultPage({ params }: { params: Promise<{ id: string }> }) {
  const staff = await requireStaffOrg();
  const { id } = await params;
  const batch = await bulkBatchView(staff.db, staff.orgId, id).catch((err: unknown) => {
    if (err instanceof ApiError && err.status === 404) notFound();
    throw err;
  });
  const drafts = batch.results.filter((r) => r.status === 'draft').length;
  return (
    <>
      <div className="page-header">
        <div>
          <p className="muted">
            <Link href="/signature">Signature électronique</Link> / <Link href="/signature/bulk">Envoi groupé</Link> /
          </p>
          <h1>Envoi du {formatInstant(batch.created_at)}</h1>
        </div>
      </div>
      <SignatureTabs current="bulk" />
      <p>
        {batch.sent_count} enveloppe{batch.sent_count > 1 ? 's' : ''} créée{batch.sent_count > 1 ? 's' : ''}, {batch.failed_count} destinataire
        {batch.failed_count > 1 ? 's' : ''} en erreur.
        {drafts > 0 && ` ${drafts} en cours d’envoi (rechargez la page dans un instant).`}
      </p>
      <section className="card">
        <DataTable
          label="Résultat par destinataire"
          columns={[
            { key: 'n', header: 'N°', num: true, cell: (_, i) => i + 1 },
            { key: 'e_mail', header: 'E-mail', cell: (r) => r.email ?? <span className="muted">—</span> },
            {
              key: 'enveloppe',
              header: 'Enveloppe',
              cell: (r) => r.envelope_id ? <Link href={`/signature/${r.envelope_id}`}>{r.status ? ENVELOPE_STATUS_LABELS[r.status] : 'Ouvrir'}</Link> : <span className="muted">—</span>,
            },
            {
              key: 'erreur',
              header: 'Erreur',
              cell: (r) => r.error ? <span className="field-error">{frenchResult(r.error)}</span> : <span className="muted">—</span>,
            },
          ]}
          rows={batch.results}
          rowKey={(_, i) => i}
        />
      </section>
    </>
  );
}
