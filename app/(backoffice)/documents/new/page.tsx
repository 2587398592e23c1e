import type { Metadata } from 'next';
import Link from 'next/link';
import { z } from 'zod';
import { todayParis } from '@/lib/platform/dates';
import { getInvoiceSettings } from '@/lib/domain/invoice-settings';
import { getContact } from '@/lib/domain/contacts';
import { ApiError } from '@/lib/platform/errors';
import { requireStaffOrg } from '@/lib/platform/next';
import { DocumentEditor } from '../document-editor';
import { newForm, termsFor } from '../editor-model';

export const metadata: Metadata = { title: 'Nouveau document' };

export default async function NewDocumentPage({ searchParams }: { searchParams: Promise<{ type?: string; contact_id?: string }> }) {
  const staff = await requireStaffOrg();
  const raw = await searchParams;
  const type = raw.type === 'facture' ? 'facture' : 'devis';
  const settings = await getInvoiceSettings(staff.db, staff.orgId);
  const form = newForm(type, todayParis(), settings);

  // Opened from a contact ("Nouveau devis" on its page): the client and its terms are already chosen.
  let contact: { id: string; name: string } | null = null;
  if (raw.contact_id && z.uuid().safeParse(raw.contact_id).success) {
    try {
      const c = await getContact(staff.db, staff.orgId, raw.contact_id);
      if (!c.deleted_at && c.display_name) {
        contact = { id: c.id, name: c.display_name };
        Object.assign(form, { contact_id: c.id }, termsFor(c, settings));
      }
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404)) throw err;
    }
  }
  const title = type === 'facture' ? 'Nouvelle facture' : 'Nouveau devis';
  return (
    <>
      <div className="page-header">
        <div>
          <p className="muted">
            <Link href="/documents">Devis & factures</Link> /
          </p>
          <h1>{title}</h1>
        </div>
      </div>
      <p className="muted">
        Un brouillon n’a pas de numéro et reste modifiable ; il est numéroté et scellé quand vous le finalisez. Les totaux sont
        calculés ligne par ligne puis par taux de TVA, comme sur le document final.
      </p>
      <DocumentEditor
        target={{ type }}
        type={type}
        initial={form}
        contact={contact}
        settings={{
          default_payment_terms: settings.default_payment_terms,
          default_discount_terms: settings.default_discount_terms,
          default_validity_days: settings.default_validity_days,
        }}
        cancelHref="/documents"
      />
    </>
  );
}
