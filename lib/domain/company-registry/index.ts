/** The public company register (recherche-entreprises), to fill a legal identity from a SIREN or SIRET. */
export { type CompanyIdentity, type CompanyLookup, type LookupOptions, lookupCompany } from './lookup';
