import type { Db } from '@/db/client';
import { conflict } from '@/lib/errors';
import { todayParis } from './dates';
import { loadDocument, recordDocumentEvent } from './documents';
import type { BillingDocument } from './schemas';
import { OPEN_QUOTE_STATUSES, pastValidity, setStatus } from './transitions';

/**
 * The client's answer to a quote: finalized or sent → accepted | rejected. A draft was never issued
 * (409 not_finalized); any other status, or a quote past its validity date, is 409 invalid_transition.
 */
async function decide(db: Db, orgId: string, id: string, decision: 'accepted' | 'rejected'): Promise<BillingDocument> {
  return db.transaction(async (tx) => {
    const row = await loadDocument(tx, orgId, id, true);
    const verb = decision === 'accepted' ? 'accepted' : 'rejected';
    if (row.type !== 'devis') throw conflict('invalid_transition', `Only a quote can be ${verb}; this is a ${row.type}.`);
    if (row.status === 'draft') throw conflict('not_finalized', `A draft quote cannot be ${verb}: finalize it first.`);
    if (!OPEN_QUOTE_STATUSES.includes(row.status)) throw conflict('invalid_transition', `This quote is ${row.status}: it cannot be ${verb}.`);
    if (pastValidity(row, todayParis())) {
      throw conflict('invalid_transition', `This quote expired after ${row.validity_date}: it cannot be ${verb}.`);
    }
    const updated = await setStatus(tx, orgId, row, decision);
    return recordDocumentEvent(tx, orgId, decision === 'accepted' ? 'quote.accepted' : 'quote.rejected', updated);
  });
}

export const acceptQuote = (db: Db, orgId: string, id: string) => decide(db, orgId, id, 'accepted');
export const rejectQuote = (db: Db, orgId: string, id: string) => decide(db, orgId, id, 'rejected');
