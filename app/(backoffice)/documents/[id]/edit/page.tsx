import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { getInvoiceSettings } from '@/lib/domain/invoice-settings';
import { requireStaffOrg } from '@/lib/platform/next';
import { DocumentEditor } from '../../document-editor';
import { formFromDocument } from '../../editor-model';
import { documentName, TYPE_LABELS } from '../../labels';
import { loadDocumentOr404 } from '../../load';

export const metadata: Metadata = { title: 'Modifier le brouillon' };

export default async function EditDocumentPage({ params }: { params: Promise<{ id: string }> }) {
  const staff = await requireStaffOrg();
  const doc = await loadDocumentOr404(staff, (await params).id);
  // Only a draft changes: a numbered document is corrected by a credit note, from its own page.
  if (doc.status !== 'draft') redirect(`/documents/${doc.id}`);
  const settings = await getInvoiceSettings(staff.db, staff.orgId);
  return (
    <>
      <div className="page-header">
        <div>
          <p className="muted">
            <Link href="/documents">Devis & factures</Link> / <Link href={`/documents/${doc.id}`}>{documentName(doc)}</Link> /
          </p>
          <h1>Modifier : {TYPE_LABELS[doc.type].toLowerCase()} (brouillon)</h1>
        </div>
      </div>
      <DocumentEditor
        target={{ id: doc.id }}
        type={doc.type}
        initial={formFromDocument(doc)}
        contact={{ id: doc.contact_id, name: doc.contact_name ?? 'Contact supprimé' }}
        settings={{
          default_payment_terms: settings.default_payment_terms,
          default_discount_terms: settings.default_discount_terms,
          default_validity_days: settings.default_validity_days,
        }}
        cancelHref={`/documents/${doc.id}`}
      />
    </>
  );
}
