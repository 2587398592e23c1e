import { contactConsents, contacts } from '@/db/schema';
import { type ContactReference, installedModules } from '@/lib/platform/manifest';

/** Contacts' own references: its consent history, and the contacts merged earlier into a source. */
export const ownContactReferences: ContactReference[] = [
  { resource: 'consent_history', table: contactConsents, column: contactConsents.contact_id, export: false },
  // Contacts merged earlier into a source follow it to the target, so merged_into_id never points at a merged contact.
  { resource: 'merged_contacts', table: contacts, column: contacts.merged_into_id, export: false },
];

/**
 * Every column of the app that points at a contact, as the modules declare them in their manifest
 * (`contactReferences`): a merge repoints them all, the preview counts them, the export lists their rows.
 */
export function contactReferences(): ContactReference[] {
  return installedModules().flatMap((m) => m.contactReferences ?? []);
}
