/** Exports for the accountant: the sales and bank journals as FEC files, and CSV files of lines and payments for a period. */
export { csvText, LINES_CSV_HEADER, linesCsv, PAYMENTS_CSV_HEADER, paymentsCsv } from './csv-exports';
export { ACCOUNT_RATES, type RateAccountField } from './account-rates';
export { DEFAULT_EXPORT_SETTINGS, ExportSettings, getExportSettings, saveExportSettings } from './export-settings';
export { auxAccountOf, type FecEntry, fecEntries, type FecLine, groupAccounts, JOURNAL_TYPES, natureOf, type SalesNature } from './fec-entries';
export { FEC_COLUMNS, type FecFileOptions, fecFile } from './fec-file';
export { numbered, type PeriodPayment, paymentEntries, periodPayments } from './payments-journal';
export { currentMonth, PERIOD_PRESETS, Period, type PeriodPreset, presetOf, presetPeriod } from './period';
