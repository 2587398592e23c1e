import { IdParams, operation, pageOf } from '@/lib/platform/contract';
import {
  Contact,
  ContactCreate,
  ContactExport,
  ContactImport,
  ContactListQuery,
  ContactPatch,
  DuplicateGroup,
  DuplicatesQuery,
  ImportSummary,
  MAX_IMPORT_ROWS,
  MergeBody,
  MergeResult,
} from './schemas';

const tag = 'Contacts';
const notLive: Array<[number, string]> = [
  [409, 'contact_deleted'],
  [409, 'contact_merged'],
  [409, 'contact_erased'],
];

export const createContactOperation = operation({
  method: 'post',
  path: '/v1/contacts',
  tag,
  summary: 'Create a contact',
  scope: 'contacts:write',
  body: ContactCreate,
  responses: { 201: { description: 'The created contact.', schema: Contact } },
});

export const listContactsOperation = operation({
  method: 'get',
  path: '/v1/contacts',
  tag,
  summary: 'List contacts, newest first',
  description: 'Live contacts only unless include_deleted=true. Filters combine with AND.',
  scope: 'contacts:read',
  query: ContactListQuery,
  responses: { 200: { description: 'A page of contacts.', schema: pageOf(Contact, 'ContactPage') } },
  errors: [[422, 'invalid_cursor']],
});

export const importContactsOperation = operation({
  method: 'post',
  path: '/v1/contacts/import',
  tag,
  summary: 'Import contacts in bulk',
  description:
    `Up to ${MAX_IMPORT_ROWS} rows. Each row is validated on its own: invalid rows are listed in errors and do not fail the request. ` +
    'A valid row whose e-mail (trimmed, case-insensitive) belongs to a live contact, or to an earlier valid row, is skipped. ' +
    'The rows are inserted in one transaction: a database failure writes nothing.',
  scope: 'contacts:write',
  body: ContactImport,
  responses: { 200: { description: 'The import summary.', schema: ImportSummary } },
  errors: [[413, 'batch_too_large']],
  // 1000 rows of every field filled stay under 5 MiB.
  maxBodyBytes: 5 * 1024 * 1024,
});

export const listDuplicatesOperation = operation({
  method: 'get',
  path: '/v1/contacts/duplicates',
  tag,
  summary: 'Groups of probable duplicates',
  description:
    'Live contacts sharing an e-mail, a SIRET, or a normalized name (case, accents, punctuation ignored) and postal code. ' +
    'Contacts linked by any rule form one group. Groups come newest first.',
  scope: 'contacts:read',
  query: DuplicatesQuery,
  responses: { 200: { description: 'A page of duplicate groups.', schema: pageOf(DuplicateGroup, 'DuplicateGroupPage') } },
  errors: [[422, 'invalid_cursor']],
});

export const getContactOperation = operation({
  method: 'get',
  path: '/v1/contacts/{id}',
  tag,
  summary: 'Retrieve a contact',
  description: 'Deleted, merged and erased contacts are returned too, with deleted_at, merged_into_id and erased_at.',
  scope: 'contacts:read',
  params: IdParams,
  responses: { 200: { description: 'The contact.', schema: Contact } },
});

export const updateContactOperation = operation({
  method: 'patch',
  path: '/v1/contacts/{id}',
  tag,
  summary: 'Update a contact',
  description: 'Omitted key: unchanged; explicit null: cleared. A change of marketing_consent is added to the consent history.',
  scope: 'contacts:write',
  params: IdParams,
  body: ContactPatch,
  responses: { 200: { description: 'The updated contact.', schema: Contact } },
  errors: notLive,
});

export const deleteContactOperation = operation({
  method: 'delete',
  path: '/v1/contacts/{id}',
  tag,
  summary: 'Delete a contact (soft)',
  description: 'Sets deleted_at; POST /v1/contacts/{id}/restore undoes it. Deleting a deleted contact answers it unchanged.',
  scope: 'contacts:write',
  params: IdParams,
  responses: { 200: { description: 'The deleted contact.', schema: Contact } },
});

export const restoreContactOperation = operation({
  method: 'post',
  path: '/v1/contacts/{id}/restore',
  tag,
  summary: 'Restore a deleted contact',
  description: 'A live contact is answered unchanged. A merged or erased contact cannot be restored (409).',
  scope: 'contacts:write',
  params: IdParams,
  responses: { 200: { description: 'The restored contact.', schema: Contact } },
  errors: [
    [409, 'contact_merged'],
    [409, 'contact_erased'],
  ],
});

export const mergePreviewOperation = operation({
  method: 'post',
  path: '/v1/contacts/{id}/merge-preview',
  tag,
  summary: 'Preview a merge into this contact',
  description: 'The merged contact and the records that would move to it. Changes nothing.',
  scope: 'contacts:write',
  params: IdParams,
  body: MergeBody,
  responses: { 200: { description: 'What the merge would do.', schema: MergeResult } },
  errors: notLive,
});

export const mergeOperation = operation({
  method: 'post',
  path: '/v1/contacts/{id}/merge',
  tag,
  summary: 'Merge contacts into this contact',
  description:
    'In one transaction: every record of the sources (documents, envelopes, mandates, recurring templates, consent history) ' +
    'moves to this contact, the tags are united, and the sources are soft-deleted with merged_into_id.',
  scope: 'contacts:write',
  params: IdParams,
  body: MergeBody,
  responses: { 200: { description: 'The merged contact, the merged sources and what moved.', schema: MergeResult } },
  errors: notLive,
});

export const eraseContactOperation = operation({
  method: 'post',
  path: '/v1/contacts/{id}/erase',
  tag,
  summary: 'Erase a contact (GDPR right to erasure)',
  description:
    'Irreversible. Every personal field becomes null and the consent history is deleted; the contact stays as a tombstone ' +
    '(erased_at set) so documents that refer to it stay valid. Finalized documents keep their frozen client snapshot. ' +
    'Contacts merged into it are erased too. Erasing again answers the tombstone.',
  scope: 'contacts:write',
  params: IdParams,
  responses: { 200: { description: 'The erased contact (tombstone).', schema: Contact } },
});

export const exportContactOperation = operation({
  method: 'get',
  path: '/v1/contacts/{id}/export',
  tag,
  summary: 'Export everything held about a contact (GDPR access and portability)',
  description: 'A JSON download (Content-Disposition: attachment).',
  scope: 'contacts:read',
  params: IdParams,
  responses: { 200: { description: 'The export bundle.', schema: ContactExport } },
});

export const contactOperations = [
  createContactOperation,
  listContactsOperation,
  importContactsOperation,
  listDuplicatesOperation,
  getContactOperation,
  updateContactOperation,
  deleteContactOperation,
  restoreContactOperation,
  mergePreviewOperation,
  mergeOperation,
  eraseContactOperation,
  exportContactOperation,
];
