import { type CompanyIdentity, lookupCompany } from '@/lib/domain/company-registry';
import { companyRegistryUrl } from '@/lib/platform/config';

/** Whether the forms offer "Remplir depuis le SIREN" (COMPANY_REGISTRY_URL set). */
export const companyRegistryEnabled = () => companyRegistryUrl() !== null;

const REASONS = {
  disabled: 'La recherche dans le registre des entreprises n’est pas activée.',
  invalid: 'Saisissez un SIREN (9 chiffres) ou un SIRET (14 chiffres) valide.',
  not_found: 'Aucune entreprise avec ce numéro dans le registre des entreprises.',
  unreachable: 'Le registre des entreprises ne répond pas : réessayez plus tard ou saisissez l’identité à la main.',
} as const;

export type RegistryAnswer = { company: CompanyIdentity } | { problem: string };

/** The lookup behind the forms' button: off, refused or not found is a French sentence, never an error page. */
export async function lookupRegistry(query: string, env: Record<string, string | undefined> = process.env): Promise<RegistryAnswer> {
  const baseUrl = companyRegistryUrl(env);
  if (!baseUrl) return { problem: REASONS.disabled };
  const found = await lookupCompany(query, { baseUrl });
  return found.ok ? { company: found.company } : { problem: REASONS[found.reason] };
}
