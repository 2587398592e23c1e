import { frenchVatNumber, isValidSiren, isValidSiret } from '@/lib/platform/identifiers';

/*
 * The legal identity of a French company from the public company register (the State's "recherche-entreprises"
 * API, https://recherche-entreprises.api.gouv.fr/search?q=<SIREN or SIRET>): off unless COMPANY_REGISTRY_URL is set
 * (lib/platform/config). Nothing is stored: the answer fills a form that staff check and save.
 */

export interface CompanyIdentity {
  siren: string;
  /** The establishment asked for (a SIRET query), else the head office's. */
  siret: string | null;
  legal_name: string;
  /** A short form (SAS, SARL…) when the register's legal category is a common one, else null. */
  legal_form: string | null;
  address: string | null;
  postal_code: string | null;
  city: string | null;
  vat_number: string;
}

export type CompanyLookup = { ok: true; company: CompanyIdentity } | { ok: false; reason: 'invalid' | 'not_found' | 'unreachable' };

/** INSEE legal categories (catégories juridiques, level 3) of the usual forms. */
const LEGAL_FORMS: Record<string, string> = {
  '1000': 'EI',
  '5202': 'SNC',
  '5306': 'SCS',
  '5498': 'EURL',
  '5499': 'SARL',
  '5505': 'SA',
  '5510': 'SA',
  '5599': 'SA',
  '5710': 'SAS',
  '5720': 'SASU',
  '6540': 'SCI',
  '9220': 'Association',
};

interface Establishment {
  siret?: string;
  adresse?: string;
  code_postal?: string | null;
  libelle_commune?: string | null;
}
interface RegistryResult {
  siren?: string;
  nom_complet?: string;
  nom_raison_sociale?: string | null;
  nature_juridique?: string | null;
  siege?: Establishment;
  matching_etablissements?: Establishment[];
}

/** The street part of an address the register writes whole ("12 RUE DE LA PAIX 75002 PARIS"). */
function streetOf(e: Establishment): string | null {
  const full = e.adresse?.trim();
  if (!full) return null;
  const tail = [e.code_postal, e.libelle_commune].filter(Boolean).join(' ');
  return (tail && full.endsWith(tail) ? full.slice(0, -tail.length) : full).trim() || null;
}

function identityOf(result: RegistryResult, siret: string | null): CompanyIdentity {
  const place = (siret && result.matching_etablissements?.find((e) => e.siret === siret)) || result.siege || {};
  const siren = result.siren!;
  return {
    siren,
    siret: place.siret ?? null,
    legal_name: (result.nom_raison_sociale || result.nom_complet || '').trim(),
    legal_form: (result.nature_juridique && LEGAL_FORMS[result.nature_juridique]) ?? null,
    address: streetOf(place),
    postal_code: place.code_postal ?? null,
    city: place.libelle_commune ?? null,
    vat_number: frenchVatNumber(siren),
  };
}

export interface LookupOptions {
  /** COMPANY_REGISTRY_URL: the API's base (the tests' fake in tests). */
  baseUrl: string;
  /** A slow register must not hold the form: past this, "unreachable". */
  timeoutMs?: number;
}

/** The company of a SIREN or SIRET (spaces allowed); a number with a wrong key is not asked for. */
export async function lookupCompany(query: string, { baseUrl, timeoutMs = 4000 }: LookupOptions): Promise<CompanyLookup> {
  const digits = query.replace(/\s+/g, '');
  const siret = digits.length === 14 ? digits : null;
  if (!(siret ? isValidSiret(siret) : isValidSiren(digits))) return { ok: false, reason: 'invalid' };
  const siren = digits.slice(0, 9);
  const url = new URL('search', `${baseUrl.replace(/\/$/, '')}/`);
  url.searchParams.set('q', digits);
  url.searchParams.set('page', '1');
  url.searchParams.set('per_page', '5');
  let body: { results?: RegistryResult[] };
  try {
    const res = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs) });
    if (res.status === 404) return { ok: false, reason: 'not_found' };
    if (!res.ok) return { ok: false, reason: 'unreachable' };
    body = (await res.json()) as typeof body;
  } catch {
    // Refused, timed out, or not JSON: the register cannot be used now.
    return { ok: false, reason: 'unreachable' };
  }
  // A full-text search: only the result with this very SIREN is the company asked for.
  const found = body.results?.find((r) => r.siren === siren);
  return found ? { ok: true, company: identityOf(found, siret) } : { ok: false, reason: 'not_found' };
}
