import type { Metadata } from 'next';
import { companyRegistryEnabled } from '@/components/company-registry';
import Link from 'next/link';
import { createContactAction } from '../actions';
import { ContactForm } from '../contact-form';

export const metadata: Metadata = { title: 'Nouveau contact' };

export default function NewContactPage() {
  return (
    <>
      <div className="page-header">
        <h1>Nouveau contact</h1>
        <div className="actions">
          <Link className="btn" href="/contacts/import">
            Importer un fichier CSV
          </Link>
        </div>
      </div>
      <ContactForm registry={companyRegistryEnabled()} action={createContactAction} initial={{ type: 'professionnel', country: 'FR' }} submitLabel="Créer le contact" cancelHref="/contacts" />
    </>
  );
}
