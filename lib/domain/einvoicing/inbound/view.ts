import { createHash } from 'node:crypto';
import type { inboundInvoices } from '@/db/schema';
import { objectKey } from '@/lib/platform/storage';
import type { InboundInvoice } from '../schemas';

export type InboundRow = typeof inboundInvoices.$inferSelect;

/** The API's Inbound invoice (spec): the stored XML, the parsed detail and the digest stay out. */
export function toInboundInvoice(row: InboundRow): InboundInvoice {
  return {
    id: row.id,
    transmission_id: row.flow_id,
    parse_status: row.parse_status,
    invoice_number: row.invoice_number,
    issue_date: row.issue_date,
    due_date: row.due_date,
    currency: row.currency,
    seller_name: row.seller_name,
    sender_siren: row.sender_siren,
    total_ht: row.total_ht,
    total_vat: row.total_vat,
    total_ttc: row.total_ttc,
    byte_size: row.byte_size,
    pdf_storage_key: row.pdf_storage_key,
    received_at: row.received_at?.toISOString() ?? null,
    imported_at: row.imported_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
  };
}

/*
 * Storage keys of a received flow, derived from the org and the PA's flow id alone (the flow id may hold characters a
 * key may not, so it is hashed): a rerun after a crash writes the same object again instead of leaving an orphan.
 */
const flowFolder = (orgId: string, flowId: string) => ['inbound', orgId, createHash('sha256').update(flowId).digest('hex').slice(0, 40)];
export const originalKey = (orgId: string, flowId: string) => objectKey(...flowFolder(orgId, flowId), 'original');
export const readablePdfKey = (orgId: string, flowId: string) => objectKey(...flowFolder(orgId, flowId), 'readable.pdf');

