import { linesCsv } from '@/lib/exports';
import { requireStaffOrg } from '@/lib/http/staff';
import { attachment, periodOf } from '../download';

/** GET /exports/lignes.csv?from&to: every line of the documents issued in the period. */
export async function GET(request: Request) {
  const staff = await requireStaffOrg();
  const period = periodOf(request);
  if (period instanceof Response) return period;
  return attachment(await linesCsv(staff.db, staff.orgId, period), `lignes-${period.from}-${period.to}.csv`, 'text/csv');
}
