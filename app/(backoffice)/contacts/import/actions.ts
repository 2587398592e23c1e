'use server';

import { importContacts } from '@/lib/domain/contacts';
import { validationError } from '@/lib/platform/errors';
import { staffAction } from '@/lib/platform/next';

/**
 * One batch of the CSV import (at most 1000 rows, the API's limit): the import service itself validates each
 * row, skips the e-mail duplicates and answers the summary, exactly as POST /v1/contacts/import does.
 */
export const importChunkAction = staffAction(async ({ db, orgId }, rows: unknown) => {
  if (!Array.isArray(rows)) throw validationError('contacts', 'contacts: must be an array of contact objects');
  return importContacts(db, orgId, rows);
});
