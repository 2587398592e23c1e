import { and, eq } from 'drizzle-orm';
import { paymentLinks } from '@/db/schema';
import type { Conn } from '@/lib/domain/documents';
import { decryptToken, payUrl } from './payment-links';
import type { PaymentLink } from './schemas';

/** The document's payment link if one was minted, without minting one (the document page shows it again). */
export async function paymentLinkOf(conn: Conn, orgId: string, documentId: string): Promise<PaymentLink | null> {
  const [row] = await conn
    .select()
    .from(paymentLinks)
    .where(and(eq(paymentLinks.org_id, orgId), eq(paymentLinks.document_id, documentId)));
  if (!row) return null;
  const token = decryptToken(row.token_encrypted, row.token_hash);
  return { already_exists: true, url: token ? payUrl(token) : null, expires_at: row.expires_at?.toISOString() ?? null };
}
