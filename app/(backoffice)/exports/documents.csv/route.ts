import { requireStaffOrg } from '@/lib/platform/next';
import { documentsDownload } from '../download';

/** GET /exports/documents.csv?from&to: the documents issued in the period, as CSV (lib/exports; ../download.ts). */
export async function GET(request: Request) {
  return documentsDownload(await requireStaffOrg(), request);
}
