/** Exports for the accountant: the sales journal as a FEC file, and CSV files of lines and payments for a period. */
export { csvText, LINES_CSV_HEADER, linesCsv, PAYMENTS_CSV_HEADER, paymentsCsv } from './csv-exports';
export { DEFAULT_EXPORT_SETTINGS, ExportSettings, getExportSettings, saveExportSettings } from './export-settings';
export { auxAccountOf, type FecEntry, fecEntries, type FecLine, JOURNAL_TYPES } from './fec-entries';
export { FEC_COLUMNS, type FecFileOptions, fecFile } from './fec-file';
export { currentMonth, Period } from './period';
