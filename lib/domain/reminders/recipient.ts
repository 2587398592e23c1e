import { type ContactRow, contactGone, type DocumentRow } from '@/lib/domain/documents';
import type { Language } from '@/lib/platform/email';

/**
 * Who a document's e-mails go to, in which language, and how they greet: the contact as it is now (a merge
 * repoints the document to the surviving contact). A deleted or erased contact has no usable address.
 */
export const contactEmail = (contact: ContactRow | null): string | null => (contact && !contactGone(contact) ? contact.email : null);

/** The contact's preferred language, French by default (as the PDF: the snapshot's, else the contact's). */
export function languageOf(doc: Pick<DocumentRow, 'client_snapshot'>, contact: ContactRow | null): Language {
  const snapshot = doc.client_snapshot as { preferred_language?: string | null } | null;
  return (snapshot?.preferred_language ?? contact?.preferred_language) === 'en' ? 'en' : 'fr';
}

/** "Bonjour Jeanne Martin," for a person; a company gets the plain "Bonjour,". */
export function greetingName(contact: ContactRow | null): string | null {
  if (!contact || contactGone(contact)) return null;
  return [contact.first_name, contact.last_name].filter(Boolean).join(' ') || null;
}
