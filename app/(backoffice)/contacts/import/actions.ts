'use server';

import { importContacts } from '@/lib/contacts/import';
import type { ImportSummary } from '@/lib/contacts/schemas';
import { ApiError } from '@/lib/errors';
import { requireStaffOrg } from '@/lib/http/staff';

export type ImportChunkResult = { summary: ImportSummary } | { error: string };

/**
 * One batch of the CSV import (at most 1000 rows, the API's limit): the import service itself validates each
 * row, skips the e-mail duplicates and answers the summary, exactly as POST /v1/contacts/import does.
 */
export async function importChunkAction(rows: unknown): Promise<ImportChunkResult> {
  const staff = await requireStaffOrg();
  if (!Array.isArray(rows)) return { error: 'contacts: must be an array of contact objects' };
  try {
    return { summary: await importContacts(staff.db, staff.orgId, rows) };
  } catch (err) {
    if (err instanceof ApiError) return { error: err.message };
    throw err;
  }
}
