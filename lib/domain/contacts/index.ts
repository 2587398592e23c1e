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
