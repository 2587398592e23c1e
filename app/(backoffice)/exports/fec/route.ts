import { fecEntries, fecFile, getExportSettings } from '@/lib/exports';
import { requireStaffOrg } from '@/lib/http/staff';
import { getOrg } from '@/lib/orgs/orgs';
import { attachment, periodOf, refusal } from '../download';

/** GET /exports/fec?from&to: the sales journal of the period as a FEC file, named after the SIREN and the period's end. */
export async function GET(request: Request) {
  const staff = await requireStaffOrg();
  const period = periodOf(request);
  if (period instanceof Response) return period;
  const org = await getOrg(staff.db, staff.orgId);
  if (!org.siren || !/^\d{9}$/.test(org.siren)) return refusal(422, 'Le FEC porte le SIREN de l’entreprise : renseignez-le dans Réglages → Organisation.');
  const entries = await fecEntries(staff.db, staff.orgId, period, await getExportSettings(staff.db, staff.orgId));
  const { name, content } = fecFile(entries, { siren: org.siren, closingDate: period.to });
  return attachment(content, name, 'text/plain');
}
