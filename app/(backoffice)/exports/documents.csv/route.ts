import { documentsToExport, EXPORT_LIMIT, paidByDocument } from '@/lib/documents/list-documents';
import { requireStaffOrg } from '@/lib/http/staff';
import { documentsCsv } from '../../documents/documents-csv';
import { attachment, periodOf, refusal } from '../download';

/**
 * GET /exports/documents.csv?from&to: the documents issued in the period (drafts and cancelled drafts aside: no number, not issued), in
 * the documents list's CSV (the same columns, credit notes negative).
 */
export async function GET(request: Request) {
  const staff = await requireStaffOrg();
  const period = periodOf(request);
  if (period instanceof Response) return period;
  const all = await documentsToExport(staff.db, staff.orgId, { issue_date_from: period.from, issue_date_to: period.to });
  if (all.length > EXPORT_LIMIT) return refusal(422, `Plus de ${EXPORT_LIMIT.toLocaleString('fr-FR')} documents sur cette période : exportez-la en plusieurs fois.`);
  const docs = all.filter((d) => d.number !== null);
  const paid = await paidByDocument(
    staff.db,
    staff.orgId,
    docs.map((d) => d.id),
  );
  return attachment(documentsCsv(docs, paid), `documents-${period.from}-${period.to}.csv`, 'text/csv');
}
