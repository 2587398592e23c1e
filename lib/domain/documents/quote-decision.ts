import type { Db } from '@/db/client';
import { loadDocument, recordDocumentEvent } from './documents';
import type { BillingDocument } from './schemas';
import { assertAllowed, setStatus } from './transitions';

/**
 * The client's answer to a quote: finalized or sent → accepted | rejected. A draft was never issued
 * (409 not_finalized); any other status, or a quote past its validity date, is 409 invalid_transition.
 */
async function decide(db: Db, orgId: string, id: string, decision: 'accepted' | 'rejected'): Promise<BillingDocument> {
  return db.transaction(async (tx) => {
    const row = await loadDocument(tx, orgId, id, true);
    await assertAllowed(tx, orgId, row, decision === 'accepted' ? 'accept' : 'reject');
    const updated = await setStatus(tx, orgId, row, decision);
    return recordDocumentEvent(tx, orgId, decision === 'accepted' ? 'quote.accepted' : 'quote.rejected', updated);
  });
}

export const acceptQuote = (db: Db, orgId: string, id: string) => decide(db, orgId, id, 'accepted');
export const rejectQuote = (db: Db, orgId: string, id: string) => decide(db, orgId, id, 'rejected');
