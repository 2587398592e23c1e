import type { Metadata } from 'next';
import Link from 'next/link';
import { ActionForm, Confirm, DataTable, EmptyState, loadListPage, Pager, readListFilters } from '@/components/ui';
import { formatInstant } from '@/lib/platform/format';
import { requireStaffOrg } from '@/lib/platform/next';
import { PageQuery } from '@/lib/platform/http';
import { listTemplates } from '@/lib/domain/signature';
import { deleteTemplateAction } from '../actions';
import { SignatureTabs } from '../tabs';
import { TemplateForm } from './template-form';

export const metadata: Metadata = { title: 'Modèles de signature' };

/** Templates (GET/POST /v1/signature/templates): presets of subject, message, labels and copied recipients. */
export default async function SignatureTemplatesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const staff = await requireStaffOrg();
  const filters = readListFilters(await searchParams, ['cursor'] as const);
  const { page, problem } = await loadListPage(PageQuery, filters, (q) => listTemplates(staff.db, staff.orgId, q));
  return (
    <>
      <div className="page-header">
        <div>
          <p className="muted">
            <Link href="/signature">Signature électronique</Link> /
          </p>
          <h1>Modèles de signature</h1>
        </div>
      </div>
      <SignatureTabs current="templates" />
      <p className="muted">Un modèle préremplit l’objet, le message, les étiquettes et les destinataires en copie d’une nouvelle enveloppe.</p>
      {problem && <div className="notice notice-warning">{problem}</div>}

      <section className="card">
        {page.data.length === 0 ? (
          <EmptyState>Aucun modèle pour l’instant : créez-en un ci-dessous.</EmptyState>
        ) : (
          <DataTable
            label="Modèles de signature"
            columns={[
              {
                key: 'nom',
                header: 'Nom',
                cell: (t) => (
                  <Link href={`/signature/new?template=${t.id}`} title="Nouvelle enveloppe avec ce modèle">
                    {t.name}
                  </Link>
                ),
              },
              { key: 'objet', header: 'Objet', cell: (t) => t.subject ?? <span className="muted">—</span> },
              { key: 'etiquettes', header: 'Étiquettes', cell: (t) => t.labels.join(', ') || <span className="muted">—</span> },
              { key: 'en_copie', header: 'En copie', cell: (t) => t.cc_recipients.join(', ') || <span className="muted">—</span> },
              { key: 'cree_le', header: 'Créé le', cell: (t) => formatInstant(t.created_at, { time: null }) },
              {
                key: 'actions',
                header: <span className="sr-only">Actions</span>,
                cell: (t) => (
                  <Confirm summary="Supprimer…" tone="plain">
                    <ActionForm action={deleteTemplateAction.bind(null, t.id)} label={`Supprimer « ${t.name} »`} pendingLabel="Suppression…" variant="danger" />
                  </Confirm>
                ),
              },
            ]}
            rows={page.data}
            rowKey={(t) => t.id}
          />
        )}
      </section>
      <Pager base="/signature/templates" filters={filters} nextCursor={page.meta.next_cursor} />

      <section className="card" aria-labelledby="new-template">
        <h2 id="new-template">Nouveau modèle</h2>
        <TemplateForm />
      </section>
    </>
  );
}
