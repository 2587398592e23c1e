import type { Metadata } from 'next';
import Link from 'next/link';
import { DuplicatesQuery, findDuplicates } from '@/lib/domain/contacts';
import { ApiError } from '@/lib/platform/errors';
import { requireStaffOrg } from '@/lib/platform/next';
import { MergeGroup } from './merge-group';
import { EmptyState, LinkButton } from '@/components/ui';

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
          <EmptyState>Aucun doublon probable{cursor ? ' sur cette page' : ''}.</EmptyState>
        </section>
      ) : (
        page.data.map((group) => <MergeGroup key={group.contacts.map((c) => c.id).join()} group={group} />)
      )}
      {page?.meta.next_cursor && (
        <div className="toolbar">
          <LinkButton href={`/contacts/duplicates?cursor=${encodeURIComponent(page.meta.next_cursor)}`} rel="next">
            Suivant
          </LinkButton>
        </div>
      )}
    </>
  );
}
