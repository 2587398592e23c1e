import { and, eq } from 'drizzle-orm';
import { paymentCustomers, sepaMandates } from '@/db/schema';
import { subscribe } from '@/lib/platform/events';
import { defineJob } from '@/lib/platform/jobs';
import { revokeMandate } from './mandates';

/*
 * A contact that is erased (GDPR art. 17) or merged into another must not stay debitable: its live SEPA mandate is
 * revoked (payment method detached at the provider) and its provider customer forgotten. A merge revokes rather
 * than moves the mandate: the surviving contact may hold its own (one live per contact) and signs its own.
 * A job, not the event's transaction: the provider's HTTP call must not hold the contact's locks.
 */

export interface ContactMandatesJobData {
  org_id: string;
  contact_id: string;
  erased: boolean;
}

/** Revokes the contact's live mandate, forgets its customer; an erasure also blanks the IBAN's last four it kept. */
export const revokeContactMandatesJob = defineJob<ContactMandatesJobData>({
  name: 'payments.revoke-contact-mandates',
  // The provider down (or STRIPE_SECRET_KEY missing: 503) is retried for about an hour, then the job fails visibly.
  retryLimit: 6,
  retryDelaySeconds: 60,
  retryBackoff: true,
  async handle(data, { db }) {
    await revokeMandate(db, data.org_id, data.contact_id);
    await db.delete(paymentCustomers).where(and(eq(paymentCustomers.org_id, data.org_id), eq(paymentCustomers.contact_id, data.contact_id)));
    if (data.erased) {
      await db
        .update(sepaMandates)
        .set({ iban_last4: null, updated_at: new Date() })
        .where(and(eq(sepaMandates.org_id, data.org_id), eq(sepaMandates.contact_id, data.contact_id)));
    }
  },
});

/** contact.erased and contact.merged (one event per merged-away or erased contact) write the job in their transaction. */
export const revokeOnContactGone = subscribe<ContactMandatesJobData>({
  events: ['contact.erased', 'contact.merged'],
  job: revokeContactMandatesJob,
  data: (event) => ({ org_id: event.org_id, contact_id: (event.object as { id: string }).id, erased: event.type === 'contact.erased' }),
});
