import { paymentsCsv } from '@/lib/exports';
import { requireStaffOrg } from '@/lib/http/staff';
import { attachment, periodOf } from '../download';

/** GET /exports/paiements.csv?from&to: the payments received in the period. */
export async function GET(request: Request) {
  const staff = await requireStaffOrg();
  const period = periodOf(request);
  if (period instanceof Response) return period;
  return attachment(await paymentsCsv(staff.db, staff.orgId, period), `paiements-${period.from}-${period.to}.csv`, 'text/csv');
}
