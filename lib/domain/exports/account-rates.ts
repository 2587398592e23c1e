/** The French rates that have accounts of their own; any other rate (DOM, Corse) goes to the fallback accounts. */
export const ACCOUNT_RATES = [
  { rate: '20', key: '20', label: '20 %' },
  { rate: '10', key: '10', label: '10 %' },
  { rate: '5.5', key: '55', label: '5,5 %' },
  { rate: '2.1', key: '21', label: '2,1 %' },
] as const;
type RateKey = (typeof ACCOUNT_RATES)[number]['key'];
export type RateAccountField = `${'services' | 'goods' | 'vat'}_${RateKey}`;
