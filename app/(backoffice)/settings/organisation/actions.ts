'use server';

import { revalidatePath } from 'next/cache';
import { fieldErrors } from '@/lib/errors';
import { requireStaffOrg } from '@/lib/http/staff';
import { setOrgLogo, updateOrgIdentity } from '@/lib/orgs/orgs';
import { OrgIdentityInput } from '@/lib/orgs/schemas';
import { parseEuros } from '@/lib/money';

export type OrgFormState = { saved?: boolean; errors?: Record<string, string> };

const text = (form: FormData, key: string) => {
  const v = form.get(key);
  return typeof v === 'string' ? v : undefined;
};

export async function saveOrgAction(_prev: OrgFormState, form: FormData): Promise<OrgFormState> {
  const staff = await requireStaffOrg();
  if (staff.role === 'member') return { errors: { _form: 'Seuls les administrateurs peuvent modifier l’organisation.' } };
  let shareCapital: number | null = null;
  const capital = text(form, 'share_capital')?.trim();
  if (capital) {
    try {
      shareCapital = parseEuros(capital);
    } catch {
      return { errors: { share_capital_cents: 'Montant en euros, par exemple 10000 ou 1500,50.' } };
    }
  }
  const parsed = OrgIdentityInput.safeParse({
    ...Object.fromEntries(
      ['name', 'legal_name', 'legal_form', 'siren', 'siret', 'vat_number', 'rcs', 'address', 'postal_code', 'city', 'country', 'email', 'phone'].map((k) => [
        k,
        text(form, k)?.trim() || (k === 'name' ? '' : null),
      ]),
    ),
    country: text(form, 'country')?.trim() || 'FR',
    share_capital_cents: shareCapital,
  });
  if (!parsed.success) return { errors: fieldErrors(parsed.error) };

  const logo = form.get('logo');
  if (logo instanceof File && logo.size > 0) {
    if (!['image/png', 'image/jpeg'].includes(logo.type)) return { errors: { logo: 'Logo au format PNG ou JPEG.' } };
    if (logo.size > 512 * 1024) return { errors: { logo: 'Logo de 512 Ko au plus.' } };
  }
  await updateOrgIdentity(staff.db, staff.orgId, parsed.data);
  if (logo instanceof File && logo.size > 0) {
    await setOrgLogo(staff.db, staff.orgId, `data:${logo.type};base64,${Buffer.from(await logo.arrayBuffer()).toString('base64')}`);
  } else if (form.get('remove_logo') === 'on') {
    await setOrgLogo(staff.db, staff.orgId, null);
  }
  revalidatePath('/', 'layout');
  return { saved: true };
}
