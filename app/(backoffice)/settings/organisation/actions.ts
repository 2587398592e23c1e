'use server';

import { revalidatePath } from 'next/cache';
import { formAction, refuse } from '@/lib/platform/next';
import { identifierProblems } from '@/lib/platform/identifiers';
import { parseEuros } from '@/lib/platform/money';
import { OrgIdentityInput, setOrgAlsaceMoselle, setOrgLogo, updateOrgIdentity } from '@/lib/platform/orgs';

const text = (form: FormData, key: string) => {
  const v = form.get(key);
  return typeof v === 'string' ? v : undefined;
};

const FIELDS = ['name', 'legal_name', 'legal_form', 'siren', 'siret', 'vat_number', 'rcs', 'address', 'postal_code', 'city', 'country', 'email', 'phone'];

/** The identity typed, the share capital in euros becoming cents; blank optional texts are null. */
function identityOf(form: FormData) {
  let shareCapital: number | null = null;
  const capital = text(form, 'share_capital')?.trim();
  if (capital) {
    try {
      shareCapital = parseEuros(capital);
    } catch {
      refuse({ share_capital_cents: 'Montant en euros, par exemple 10000 ou 1500,50.' });
    }
  }
  const identity = OrgIdentityInput.parse({
    ...Object.fromEntries(FIELDS.map((k) => [k, text(form, k)?.trim() || (k === 'name' ? '' : null)])),
    country: text(form, 'country')?.trim() || 'FR',
    share_capital_cents: shareCapital,
  });
  // SIREN, SIRET and VAT number checked by their keys where they are typed (the API checks their shape only).
  const problems = identity.country === 'FR' ? identifierProblems(identity) : {};
  if (Object.keys(problems).length) refuse(problems);
  return identity;
}

export const saveOrgAction = formAction(
  async ({ db, orgId }, form) => {
    const identity = identityOf(form);
    const logo = form.get('logo');
    if (logo instanceof File && logo.size > 0) {
      if (!['image/png', 'image/jpeg'].includes(logo.type)) refuse({ logo: 'Logo au format PNG ou JPEG.' });
      if (logo.size > 512 * 1024) refuse({ logo: 'Logo de 512 Ko au plus.' });
    }
    await updateOrgIdentity(db, orgId, identity);
    await setOrgAlsaceMoselle(db, orgId, form.get('alsace_moselle') === 'on');
    if (logo instanceof File && logo.size > 0) {
      await setOrgLogo(db, orgId, `data:${logo.type};base64,${Buffer.from(await logo.arrayBuffer()).toString('base64')}`);
    } else if (form.get('remove_logo') === 'on') {
      await setOrgLogo(db, orgId, null);
    }
    revalidatePath('/', 'layout');
    return { done: 'Identité enregistrée.' };
  },
  { adminOnly: 'Seuls les administrateurs peuvent modifier l’organisation.' },
);
