import type { Metadata } from 'next';
import Link from 'next/link';
import { ActionForm } from '@/components/action-form';
import { Pager } from '@/components/list-page';
import { loadListPage, readListFilters } from '@/components/list-query';
import { formatInstant } from '@/lib/platform/format';
import { requireStaffOrg } from '@/lib/platform/http/staff';
import { PageQuery } from '@/lib/platform/http/pagination';
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
          <p className="empty">Aucun modèle pour l’instant : créez-en un ci-dessous.</p>
        ) : (
          <table className="table" aria-label="Modèles de signature">
            <thead>
              <tr>
                <th scope="col">Nom</th>
                <th scope="col">Objet</th>
                <th scope="col">Étiquettes</th>
                <th scope="col">En copie</th>
                <th scope="col">Créé le</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {page.data.map((t) => (
                <tr key={t.id}>
                  <td>
                    <Link href={`/signature/new?template=${t.id}`} title="Nouvelle enveloppe avec ce modèle">
                      {t.name}
                    </Link>
                  </td>
                  <td>{t.subject ?? <span className="muted">—</span>}</td>
                  <td>{t.labels.join(', ') || <span className="muted">—</span>}</td>
                  <td>{t.cc_recipients.join(', ') || <span className="muted">—</span>}</td>
                  <td>{formatInstant(t.created_at, { time: null })}</td>
                  <td>
                    <details>
                      <summary>Supprimer…</summary>
                      <ActionForm action={deleteTemplateAction.bind(null, t.id)} label={`Supprimer « ${t.name} »`} pendingLabel="Suppression…" className="btn btn-danger" />
                    </details>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
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
