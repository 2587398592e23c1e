import type { Org } from './orgs';

/**
 * The seller mentions French law requires on an invoice (CGI art. 242 nonies A, Code de commerce L441-9):
 * what is still missing from the org's identity, in the words staff use.
 */
export function missingLegalMentions(org: Org): string[] {
  const missing: string[] = [];
  if (!org.legal_name) missing.push('dénomination sociale');
  if (!org.legal_form) missing.push('forme juridique');
  if (!org.siren) missing.push('SIREN');
  if (!org.siret) missing.push('SIRET');
  if (!org.vat_number) missing.push('n° de TVA intracommunautaire');
  if (!org.address || !org.postal_code || !org.city) missing.push('adresse du siège');
  if (org.legal_form && /^(SAS|SASU|SARL|EURL|SA|SCI|SNC)$/i.test(org.legal_form) && org.share_capital_cents == null) missing.push('capital social');
  if (org.legal_form && /^(SAS|SASU|SARL|EURL|SA|SNC)$/i.test(org.legal_form) && !org.rcs) missing.push('immatriculation RCS');
  return missing;
}
