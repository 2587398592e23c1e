// What a client component may take of documents: the units of a line and the actions a document allows (the
// document page offers only what the services would accept). Pure functions, no database.
export { type ActionDoc, type ActionFacts, allowedActions, conversionIn, creditNoteIn, type DocumentAction, type FamilyMember, factsFromFamily } from './allowed-actions';
export { COMMON_UNITS, unitCodeOf, unitLabel } from './units';
