import type { Metadata } from 'next';
import { companyRegistryEnabled } from '@/components/company-registry/company-registry';
import { formatMoneyInput } from '@/lib/platform/format';
import { requireStaffOrg } from '@/lib/platform/next';
import { getOrg, missingLegalMentions } from '@/lib/platform/orgs';
import { OrgForm } from './org-form';

export const metadata: Metadata = { title: 'Organisation' };

export default async function OrganisationPage() {
  const staff = await requireStaffOrg();
  const org = await getOrg(staff.db, staff.orgId);
  const missing = missingLegalMentions(org);
  const capital = org.share_capital_cents == null ? '' : formatMoneyInput(org.share_capital_cents);
  return (
    <>
      <div className="page-header">
        <h1>Organisation</h1>
      </div>
      <p className="muted">Identité légale du vendeur, imprimée sur chaque devis et facture et figée dans le document à sa finalisation.</p>
      {missing.length > 0 && <div className="notice notice-warning">Mentions manquantes : {missing.join(', ')}.</div>}
      <section className="card">
        {org.logo_data_url && (
          // biome-ignore lint/performance/noImgElement: a data URL of the org's own logo; nothing to optimise
          <img src={org.logo_data_url} alt="Logo actuel" style={{ maxHeight: 64, marginBottom: 12 }} />
        )}
        <OrgForm
          registry={companyRegistryEnabled()}
          values={{
            name: org.name,
            legal_name: org.legal_name,
            legal_form: org.legal_form,
            share_capital: capital,
            siren: org.siren,
            siret: org.siret,
            vat_number: org.vat_number,
            rcs: org.rcs,
            address: org.address,
            postal_code: org.postal_code,
            city: org.city,
            country: org.country,
            email: org.email,
            phone: org.phone,
            has_logo: Boolean(org.logo_data_url),
            alsace_moselle: org.alsace_moselle,
          }}
        />
      </section>
    </>
  );
}
