import type { Metadata } from 'next';
import { ImportWizard } from './import-wizard';

export const metadata: Metadata = { title: 'Importer des contacts' };

export default function ImportContactsPage() {
  return (
    <>
      <div className="page-header">
        <h1>Importer des contacts</h1>
      </div>
      <p className="muted">
        Un fichier CSV, une ligne par contact, avec une ligne d’en-tête (séparateur « ; » ou « , », UTF-8 ou Windows-1252). Les
        lignes dont l’e-mail existe déjà, ou apparaît plus haut dans le fichier, sont ignorées comme doublons.
      </p>
      <ImportWizard />
    </>
  );
}
