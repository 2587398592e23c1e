import { requireStaffOrg } from '@/lib/platform/next';
import { fecDownload } from '../download';

/** GET /exports/fec?from&to: the sales journal as a FEC file (lib/exports; ../download.ts). */
export async function GET(request: Request) {
  return fecDownload(await requireStaffOrg(), request);
}
