import { type EInvoiceLayer, validateDocumentEInvoice } from '@/lib/domain/pdf';
import type { Db } from '@/db/client';

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
      <table className="table" aria-label="Règles enfreintes">
        <thead>
          <tr>
            <th>Règle</th>
            <th>Donnée</th>
            <th>Message</th>
            <th>Contrôle</th>
          </tr>
        </thead>
        <tbody>
          {check.errors.map((e, i) => (
            // The same rule may fail at several places: the position keeps the rows apart.
            // biome-ignore lint/suspicious/noArrayIndexKey: rows of a fixed list, never reordered
            <tr key={i}>
              <td>
                <code>{e.rule}</code>
              </td>
              <td>{e.field}</td>
              <td>{e.message}</td>
              <td>{LAYER_LABELS[e.layer]}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
