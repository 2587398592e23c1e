import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { requireStaffOrg } from '@/lib/platform/next';
import { updateEnvelopeAction } from '../../actions';
import { formFromEnvelope } from '../../editor-model';
import { EnvelopeEditor } from '../../envelope-editor';
import { envelopeTitle } from '../../labels';
import { loadEnvelopeOr404 } from '../../load';

export const metadata: Metadata = { title: 'Modifier le brouillon' };

/** A draft's settings and signers, edited (PATCH); a sent envelope is no longer editable: its page instead. */
export default async function EditEnvelopePage({ params }: { params: Promise<{ id: string }> }) {
  const staff = await requireStaffOrg();
  const e = await loadEnvelopeOr404(staff, (await params).id);
  if (e.status !== 'draft') notFound();
  return (
    <>
      <div className="page-header">
        <div>
          <p className="muted">
            <Link href="/signature">Signature électronique</Link> / <Link href={`/signature/${e.id}`}>{envelopeTitle(e)}</Link> /
          </p>
          <h1>Modifier le brouillon</h1>
        </div>
      </div>
      <EnvelopeEditor
        initial={formFromEnvelope(e)}
        templates={[]}
        source={null}
        edit={{ action: updateEnvelopeAction.bind(null, e.id), cancelHref: `/signature/${e.id}` }}
      />
    </>
  );
}
