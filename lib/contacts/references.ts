import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { contactConsents, contacts, documents } from '@/db/schema';

/**
 * A column of another record that points at a contact. A merge repoints every one of them from the sources
 * to the target in its transaction, the merge preview counts them, and the export lists the rows (unless
 * `export: false`, for the ones the export already shows in its own shape).
 *
 * A module whose records refer to contacts (billing documents, envelopes, SEPA mandates, recurring
 * templates…) adds its (table, column) here; nothing else in lib/contacts needs to change.
 */
export interface ContactReference {
  /** Name shown in the merge preview's `moves` and as the key of the export's `related`. */
  resource: string;
  table: PgTable;
  /** The contact id column. Its TS property name must equal its SQL name (db/schema convention). */
  column: PgColumn;
  export?: boolean;
}

export const contactReferences: ContactReference[] = [
  { resource: 'consent_history', table: contactConsents, column: contactConsents.contact_id, export: false },
  // Contacts merged earlier into a source follow it to the target, so merged_into_id never points at a merged contact.
  { resource: 'merged_contacts', table: contacts, column: contacts.merged_into_id, export: false },
  { resource: 'billing_documents', table: documents, column: documents.contact_id },
];
