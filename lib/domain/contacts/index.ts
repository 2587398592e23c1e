import { defineModule } from '@/lib/platform/manifest';
import { contactOperations } from './operations';
import { ownContactReferences } from './references';
import { Contact } from './schemas';

export const manifest = defineModule({
  name: 'contacts',
  operations: contactOperations,
  events: {
    'contact.created': Contact,
    'contact.updated': Contact,
    'contact.deleted': Contact,
    'contact.restored': Contact,
    'contact.erased': Contact,
    'contact.merged': Contact,
  },
  contactReferences: ownContactReferences,
});

export { createContact, deleteContact, displayName, findContact, getContact, listContacts, updateContact } from './contacts';
export { eraseContact } from './gdpr';
export { mergeContacts } from './merge';
export { ContactCreate, ContactPatch } from './schemas';
export { consentHistory } from './gdpr';
export { CONTACT_FIELDS, type ContactField, LEAD_STATUSES, parseImportRow } from './payload';
export { type MergeResult, previewMerge } from './merge';
export { Contact, ContactListQuery, DuplicatesQuery, ImportSummary, MergeBody } from './schemas';
export { type DuplicateGroup, findDuplicates } from './duplicates';
export { importContacts } from './import';
export { CONTACT_SORTS } from './contacts';
export { createContactOperation, deleteContactOperation, eraseContactOperation, exportContactOperation, getContactOperation, importContactsOperation, listContactsOperation, listDuplicatesOperation, mergeOperation, mergePreviewOperation, restoreContactOperation, updateContactOperation } from './operations';
export { restoreContact } from './contacts';
export { exportContact } from './gdpr';
