import type { Metadata } from 'next';
import Link from 'next/link';
import { formatInstant } from '@/lib/platform/format';
import { requireStaffOrg } from '@/lib/platform/next';
import { listBulkBatches, listTemplates } from '@/lib/domain/signature';
import { SignatureTabs } from '../tabs';
import { BulkForm } from './bulk-form';
import { DataTable, EmptyState } from '@/components/ui';

export const metadata: Metadata = { title: 'Envoi groupé' };

/** Bulk sending (POST /v1/signature/envelopes/bulk) from a CSV, and the latest sends with their results. */
export default async function SignatureBulkPage() {
  const staff = await requireStaffOrg();
  const [batches, templates] = await Promise.all([listBulkBatches(staff.db, staff.orgId), listTemplates(staff.db, staff.orgId, { limit: 100 })]);
  return (
    <>
      <div className="page-header">
        <div>
          <p className="muted">
            <Link href="/signature">Signature électronique</Link> /
          </p>
          <h1>Envoi groupé</h1>
        </div>
      </div>
      <SignatureTabs current="bulk" />
      <p className="muted">Un même document à signer par chaque destinataire du fichier : une enveloppe par personne, envoyée aussitôt.</p>
      <section className="card" aria-labelledby="bulk-new">
        <h2 id="bulk-new">Nouvel envoi</h2>
        <BulkForm templates={templates.data.map((t) => ({ id: t.id, name: t.name }))} />
      </section>
      <section className="card" aria-labelledby="bulk-history">
        <h2 id="bulk-history">Derniers envois</h2>
        {batches.length === 0 ? (
          <EmptyState>Aucun envoi groupé pour l’instant.</EmptyState>
        ) : (
          <DataTable
            label="Derniers envois groupés"
            columns={[
              { key: 'date', header: 'Date', cell: (b) => <Link href={`/signature/bulk/${b.id}`}>{formatInstant(b.created_at)}</Link> },
              { key: 'destinataires', header: 'Destinataires', num: true, cell: (b) => b.recipient_count },
              { key: 'envoyes', header: 'Envoyés', num: true, cell: (b) => b.sent_count },
              { key: 'en_erreur', header: 'En erreur', num: true, cell: (b) => b.failed_count },
            ]}
            rows={batches}
            rowKey={(b) => b.id}
          />
        )}
      </section>
    </>
  );
}
