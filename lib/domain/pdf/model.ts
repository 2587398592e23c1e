import type { Db } from '@/db/client';
import { type DocumentRow, invoiceModelOf, type ItemRow, loadDocument, loadItems } from '@/lib/domain/documents';
import type { InvoiceModel } from '@/lib/domain/facturx';
import { getOrg } from '@/lib/platform/orgs';

export type { Buyer, DeliveryAddress, Language, RelatedDocument, Seller } from '@/lib/domain/facturx';

/**
 * Everything the printed document says: what its Factur-X XML says (lib/domain/facturx InvoiceModel, gathered by
 * lib/domain/documents from the stored document), and the org's logo.
 */
export interface RenderModel extends InvoiceModel {
  /** The org's logo (PNG or JPEG data URL), or null. */
  logo: string | null;
}

export async function loadRenderModel(db: Db, orgId: string, documentId: string): Promise<RenderModel> {
  const doc = await loadDocument(db, orgId, documentId);
  return buildRenderModel(db, orgId, doc, await loadItems(db, orgId, doc.id));
}

export async function buildRenderModel(db: Db, orgId: string, doc: DocumentRow, items: ItemRow[]): Promise<RenderModel> {
  const org = await getOrg(db, orgId);
  return { ...(await invoiceModelOf(db, orgId, doc, items, { org })), logo: org.logo_data_url };
}
