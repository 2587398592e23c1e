import type { Metadata } from 'next';
import Link from 'next/link';
import { ActionForm } from '@/components/action-form';
import { Pager } from '@/components/list-page';
import { loadListPage, readListFilters } from '@/components/list-query';
import { formatInstant } from '@/lib/platform/format';
import { requireStaffOrg } from '@/lib/platform/http/staff';
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
          <p className="empty">Aucun formulaire pour l’instant : créez-en un ci-dessous.</p>
        ) : (
          <table className="table" aria-label="Formulaires de signature">
            <thead>
              <tr>
                <th scope="col">Titre et lien</th>
                <th scope="col">Vérification</th>
                <th scope="col" className="num">
                  Visiteurs
                </th>
                <th scope="col" className="num">
                  Enveloppes
                </th>
                <th scope="col">État</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {page.data.map((f) => {
                const c = counts.get(f.id) ?? { submitted: 0, signed_up: 0 };
                return (
                  <tr key={f.id}>
                    <td>
                      <strong>{f.title}</strong>
                      <br />
                      <a className="hash" href={f.url} target="_blank" rel="noopener">
                        {f.url}
                      </a>
                      <br />
                      <span className="muted">Créé le {formatInstant(f.created_at, { time: null })}</span>
                    </td>
                    <td>{VERIFICATION_LABELS[f.verification_method]}</td>
                    <td className="num">{c.submitted}</td>
                    <td className="num">{c.signed_up}</td>
                    <td>{f.active ? <span className="chip chip-green">Ouvert</span> : <span className="chip chip-grey">Fermé</span>}</td>
                    <td>
                      <ActionForm
                        action={toggleFormAction.bind(null, f.id, !f.active)}
                        label={f.active ? `Fermer « ${f.title} »` : `Ouvrir « ${f.title} »`}
                        pendingLabel="…"
                        className="btn btn-sm"
                      />
                      <details>
                        <summary>Supprimer…</summary>
                        <ActionForm action={deleteFormAction.bind(null, f.id)} label={`Supprimer « ${f.title} »`} pendingLabel="Suppression…" className="btn btn-danger" />
                      </details>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
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
