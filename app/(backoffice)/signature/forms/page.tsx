import type { Metadata } from 'next';
import Link from 'next/link';
import { ActionForm, Confirm, DataTable, EmptyState, loadListPage, Pager, readListFilters, StatusChip } from '@/components/ui';
import { formatInstant } from '@/lib/platform/format';
import { requireStaffOrg } from '@/lib/platform/next';
import { formSubmissionCounts, listForms, listTemplates, SignatureFormListQuery } from '@/lib/domain/signature';
import { VERIFICATION_LABELS } from '../labels';
import { SignatureTabs } from '../tabs';
import { deleteFormAction, toggleFormAction } from './actions';
import { FormCreate } from './form-create';

export const metadata: Metadata = { title: 'Formulaires de signature' };

/** Public forms (GET/POST /v1/signature/forms): their links, how many visitors came and signed up, open or closed. */
export default async function SignatureFormsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const staff = await requireStaffOrg();
  const filters = readListFilters(await searchParams, ['cursor'] as const);
  const { page, problem } = await loadListPage(SignatureFormListQuery, filters, (q) => listForms(staff.db, staff.orgId, q));
  const [counts, templates] = await Promise.all([
    formSubmissionCounts(
      staff.db,
      staff.orgId,
      page.data.map((f) => f.id),
    ),
    listTemplates(staff.db, staff.orgId, { limit: 100 }),
  ]);
  return (
    <>
      <div className="page-header">
        <div>
          <p className="muted">
            <Link href="/signature">Signature électronique</Link> /
          </p>
          <h1>Formulaires de signature</h1>
        </div>
      </div>
      <SignatureTabs current="forms" />
      <p className="muted">
        Un formulaire est une page publique : le visiteur indique son nom et son e-mail, confirme l’e-mail par un code, puis signe le document. Chaque
        signature crée une enveloppe.
      </p>
      {problem && <div className="notice notice-warning">{problem}</div>}

      <section className="card">
        {page.data.length === 0 ? (
          <EmptyState>Aucun formulaire pour l’instant : créez-en un ci-dessous.</EmptyState>
        ) : (
          <DataTable
            label="Formulaires de signature"
            columns={[
              {
                key: 'title',
                header: 'Titre et lien',
                cell: (f) => (
                  <>
                    <strong>{f.title}</strong>
                    <br />
                    <a className="hash" href={f.url} target="_blank" rel="noopener">
                      {f.url}
                    </a>
                    <br />
                    <span className="muted">Créé le {formatInstant(f.created_at, { time: null })}</span>
                  </>
                ),
              },
              { key: 'verification', header: 'Vérification', cell: (f) => VERIFICATION_LABELS[f.verification_method] },
              { key: 'submitted', header: 'Visiteurs', num: true, cell: (f) => (counts.get(f.id) ?? { submitted: 0 }).submitted },
              { key: 'signed_up', header: 'Enveloppes', num: true, cell: (f) => (counts.get(f.id) ?? { signed_up: 0 }).signed_up },
              { key: 'active', header: 'État', cell: (f) => (f.active ? <StatusChip tone="chip-green">Ouvert</StatusChip> : <StatusChip tone="chip-grey">Fermé</StatusChip>) },
              {
                key: 'actions',
                header: <span className="sr-only">Actions</span>,
                cell: (f) => (
                  <>
                    <ActionForm
                      action={toggleFormAction.bind(null, f.id, !f.active)}
                      label={f.active ? `Fermer « ${f.title} »` : `Ouvrir « ${f.title} »`}
                      pendingLabel="…"
                      small
                    />
                    <Confirm summary="Supprimer…" tone="plain">
                      <ActionForm action={deleteFormAction.bind(null, f.id)} label={`Supprimer « ${f.title} »`} pendingLabel="Suppression…" variant="danger" />
                    </Confirm>
                  </>
                ),
              },
            ]}
            rows={page.data}
            rowKey={(f) => f.id}
          />
        )}
      </section>
      <Pager base="/signature/forms" filters={filters} nextCursor={page.meta.next_cursor} />

      <section className="card" aria-labelledby="new-form">
        <h2 id="new-form">Nouveau formulaire</h2>
        <FormCreate templates={templates.data.map((t) => ({ id: t.id, name: t.name }))} />
      </section>
    </>
  );
}
