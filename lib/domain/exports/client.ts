// What a client component may bundle: the accounts' rates and the settings' type (no database).
export { ACCOUNT_RATES, type RateAccountField } from './account-rates';
export type { ExportSettings } from './export-settings';
