import type { Metadata } from 'next';
import { companyRegistryEnabled } from '@/components/company-registry/company-registry';
import { createContactAction } from '../actions';
import { ContactForm } from '../contact-form';
import { LinkButton } from '@/components/ui';

export const metadata: Metadata = { title: 'Nouveau contact' };

export default function NewContactPage() {
  return (
    <>
      <div className="page-header">
        <h1>Nouveau contact</h1>
        <div className="actions">
          <LinkButton href="/contacts/import">
            Importer un fichier CSV
          </LinkButton>
        </div>
      </div>
      <ContactForm registry={companyRegistryEnabled()} action={createContactAction} initial={{ type: 'professionnel', country: 'FR' }} submitLabel="Créer le contact" cancelHref="/contacts" />
    </>
  );
}
