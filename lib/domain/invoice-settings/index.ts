import { defineModule } from '@/lib/platform/manifest';
import { invoiceSettingsOperations } from './operations';

/** An org's invoicing defaults: prefixes, validity, VAT, legal mentions, reminder ladders. */
export const manifest = defineModule({ name: 'invoice-settings', operations: invoiceSettingsOperations });

export { loadSettings, prefixFor, type InvoiceSettingsRow } from './invoice-settings';
export { belowLegalFloors, LEGAL_INTEREST_RATES, legalInterestRate, MIN_RECOVERY_FEE, minPenaltyRate } from './legal-floors';
export { invoiceSettingsOperations } from './operations';
export { checkPdpTargets, maskPdpConfig, openSecret, type PdpConfig, PdpConfigFields, PdpConfigInput, readPdpConfig, resealPdpConfig, SECRET_MASK, sealPdpConfig, sealSecret, type StoredPdpConfig } from './pdp-config';
export { EReportingPrefs, EReportingPrefsInput, PERIODICITY_OF, storedEReportingPrefs, VAT_REGIMES } from './ereporting-prefs';
export { getSettingsOperation, putSettingsOperation } from './operations';
export { configurePdpIfUnset, getInvoiceSettings, putInvoiceSettings } from './invoice-settings';
export { InvoiceSettingsInput } from './schemas';
