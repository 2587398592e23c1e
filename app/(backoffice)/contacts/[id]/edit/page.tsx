import type { Metadata } from 'next';
import { companyRegistryEnabled } from '@/components/company-registry/company-registry';
import { redirect } from 'next/navigation';
import { requireStaffOrg } from '@/lib/platform/next';
import { updateContactAction } from '../../actions';
import { ContactForm } from '../../contact-form';
import { contactState } from '../../labels';
import { loadContactOr404 } from '../../load';
import { contactTexts } from '../../text-values';

export const metadata: Metadata = { title: 'Modifier le contact' };

export default async function EditContactPage({ params }: { params: Promise<{ id: string }> }) {
  const staff = await requireStaffOrg();
  const contact = await loadContactOr404(staff, (await params).id);
  // Only a live contact can be changed (the API answers 409 otherwise): its page says what happened to it.
  if (contactState(contact)) redirect(`/contacts/${contact.id}`);
  return (
    <>
      <div className="page-header">
        <h1>Modifier {contact.display_name}</h1>
      </div>
      <ContactForm
        registry={companyRegistryEnabled()}
        action={updateContactAction.bind(null, contact.id)}
        initial={contactTexts(contact)}
        submitLabel="Enregistrer"
        cancelHref={`/contacts/${contact.id}`}
      />
    </>
  );
}
