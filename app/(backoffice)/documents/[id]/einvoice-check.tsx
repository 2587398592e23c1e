import type { EInvoiceLayer } from '@/lib/domain/facturx';
import { validateDocumentEInvoice } from '@/lib/domain/pdf';
import type { Db } from '@/db/client';
import { DataTable } from '@/components/ui';

const LAYER_LABELS: Record<EInvoiceLayer, string> = {
  xsd: 'Schéma XSD',
  en16931: 'EN 16931',
  facturx: 'Factur-X 1.0.9',
  'br-fr': 'Règles françaises (BR-FR)',
};

/**
 * A draft's e-invoice checked as finalizing it now would produce it (GET /v1/invoices/{id}/validation): the rules
 * finalization would refuse it for, shown before the user tries. Rendered in a Suspense boundary: the check takes
 * a few hundred milliseconds and the rest of the page does not wait for it.
 */
export async function EInvoiceCheck({ db, orgId, documentId }: { db: Db; orgId: string; documentId: string }) {
  const check = await validateDocumentEInvoice(db, orgId, documentId);
  if (!check.einvoice) return null;
  if (check.valid) {
    return (
      <p data-testid="einvoice-valid">
        Conforme : la facture électronique passe le schéma XSD et les règles EN 16931, Factur-X et BR-FR. La finalisation ne sera pas
        refusée pour elle.
      </p>
    );
  }
  const rules = new Set(check.errors.map((e) => e.rule)).size;
  return (
    <>
      <p className="form-error" role="alert" data-testid="einvoice-invalid">
        La finalisation sera refusée : la facture électronique enfreint {rules === 1 ? 'une règle' : `${rules} règles`} qu’une plateforme
        agréée (PA) refuserait. Corrigez le document, le client ou la fiche de l’organisation.
      </p>
      <DataTable
        label="Règles enfreintes"
        columns={[
          { key: 'regle', header: 'Règle', cell: (e) => <code>{e.rule}</code> },
          { key: 'donnee', header: 'Donnée', cell: (e) => e.field },
          { key: 'message', header: 'Message', cell: (e) => e.message },
          { key: 'controle', header: 'Contrôle', cell: (e) => LAYER_LABELS[e.layer] },
        ]}
        rows={check.errors}
        rowKey={(_, i) => i}
      />
    </>
  );
}
