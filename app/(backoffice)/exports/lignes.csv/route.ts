import { requireStaffOrg } from '@/lib/platform/next';
import { linesDownload } from '../download';

/** GET /exports/lignes.csv?from&to: the lines of the documents issued in the period, as CSV (lib/exports; ../download.ts). */
export async function GET(request: Request) {
  return linesDownload(await requireStaffOrg(), request);
}
