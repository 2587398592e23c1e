import { requireStaffOrg } from '@/lib/platform/next';
import { bankDownload } from '../download';

/** GET /exports/banque?from&to: the bank journal (the payments) in the FEC's format (lib/exports; ../download.ts). */
export async function GET(request: Request) {
  return bankDownload(await requireStaffOrg(), request);
}
