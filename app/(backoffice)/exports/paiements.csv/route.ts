import { requireStaffOrg } from '@/lib/platform/next';
import { paymentsDownload } from '../download';

/** GET /exports/paiements.csv?from&to: the payments received in the period, as CSV (lib/exports; ../download.ts). */
export async function GET(request: Request) {
  return paymentsDownload(await requireStaffOrg(), request);
}
