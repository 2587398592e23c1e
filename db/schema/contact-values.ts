// The closed lists of a contact's columns, apart from the table (contacts.ts) so that code bundled into the browser
// (the contact form, the import preview: lib/domain/contacts/client.ts) reads them without drizzle.
export const CONTACT_TYPES = ['particulier', 'professionnel'] as const;
export const LEAD_STATUSES = ['new', 'qualified', 'contacted', 'won', 'lost'] as const;
export const LANGUAGES = ['fr', 'en'] as const;
