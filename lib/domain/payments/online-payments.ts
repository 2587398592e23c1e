import { and, desc, eq } from 'drizzle-orm';
import { onlinePayments } from '@/db/schema';
import type { Conn } from '@/lib/domain/documents';
import type { OnlinePayment } from './schemas';

export type OnlinePaymentRow = typeof onlinePayments.$inferSelect;

/** The public shape: provider ids (cs_…, pi_…) never leave the server. */
export function toPublicOnlinePayment(row: OnlinePaymentRow): OnlinePayment {
  return {
    id: row.id,
    document_id: row.document_id,
    method: row.method,
    amount: row.amount,
    status: row.status,
    failure_message: row.failure_message,
    amount_refunded: row.amount_refunded,
    dispute_status: row.dispute_status,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** A document's online payment attempts, newest first (the document page shows their provider status). */
export async function onlinePaymentsOfDocument(conn: Conn, orgId: string, documentId: string): Promise<OnlinePayment[]> {
  const rows = await conn
    .select()
    .from(onlinePayments)
    .where(and(eq(onlinePayments.org_id, orgId), eq(onlinePayments.document_id, documentId)))
    .orderBy(desc(onlinePayments.created_at), desc(onlinePayments.id));
  return rows.map(toPublicOnlinePayment);
}
