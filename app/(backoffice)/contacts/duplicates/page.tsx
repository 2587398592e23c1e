import type { Metadata } from 'next';
import Link from 'next/link';
import { findDuplicates } from '@/lib/domain/contacts/duplicates';
import { DuplicatesQuery } from '@/lib/domain/contacts/schemas';
import { ApiError } from '@/lib/platform/errors';
import { requireStaffOrg } from '@/lib/platform/http/staff';
import { MergeGroup } from './merge-group';

export const metadata: Metadata = { title: 'Doublons' };

export default async function DuplicatesPage({ searchParams }: { searchParams: Promise<{ cursor?: string }> }) {
  const staff = await requireStaffOrg();
  const { cursor } = await searchParams;
  const query = DuplicatesQuery.parse({ limit: 20, cursor: cursor || undefined });
  let page: Awaited<ReturnType<typeof findDuplicates>> | null = null;
  try {
    page = await findDuplicates(staff.db, staff.orgId, query);
  } catch (err) {
    if (!(err instanceof ApiError && err.code === 'invalid_cursor')) throw err;
  }

  return (
    <>
      <div className="page-header">
        <div>
          <p className="muted">
            <Link href="/contacts">Contacts</Link> /
          </p>
          <h1>Doublons probables</h1>
        </div>
      </div>
      <p className="muted">
        Contacts actifs qui partagent un e-mail, un SIRET, ou le même nom (sans tenir compte des majuscules, accents et ponctuation)
        avec le même code postal. Choisissez le contact à garder : les autres y sont fusionnés, avec tout ce qui s’y rattache.
      </p>
      {!page ? (
        <div className="notice notice-warning">
          Ce lien de pagination n’est plus valable. <Link href="/contacts/duplicates">Reprendre à la première page</Link>
        </div>
      ) : page.data.length === 0 ? (
        <section className="card">
          <p className="empty">Aucun doublon probable{cursor ? ' sur cette page' : ''}.</p>
        </section>
      ) : (
        page.data.map((group) => <MergeGroup key={group.contacts.map((c) => c.id).join()} group={group} />)
      )}
      {page?.meta.next_cursor && (
        <div className="toolbar">
          <Link className="btn" href={`/contacts/duplicates?cursor=${encodeURIComponent(page.meta.next_cursor)}`} rel="next">
            Suivant
          </Link>
        </div>
      )}
    </>
  );
}
