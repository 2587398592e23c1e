// What a client component may take of contacts: the contact payload's fields and the import row's validation, the
// very rules the server applies (the import preview announces the server's reasons). No database, no Node.js.
export {
  CHOOSABLE_FIELDS,
  type ChoosableField,
  CONTACT_FIELDS,
  CONTACT_TYPES,
  type ContactField,
  LANGUAGES,
  LEAD_STATUSES,
  MAX_IMPORT_ROWS,
  parseImportRow,
} from './payload';
