import { electronicFormatIBAN, friendlyFormatIBAN, isValidBIC, isValidIBAN } from 'ibantools';

/*
 * French business identifiers and bank details, checked where staff type them (the back-office forms). The API
 * keeps the spec's shapes (a SIRET is 14 digits) and does not refuse on a check digit: an integrator's data is
 * theirs. Pure functions, usable in the browser as on the server.
 */

/** Luhn's checksum over a string of digits. */
function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** La Poste's SIREN: its establishments' SIRETs follow their own rule (sum of the digits a multiple of 5), not Luhn. */
const LA_POSTE = '356000000';

/** A SIREN (9 digits) with a valid Luhn key. */
export const isValidSiren = (siren: string): boolean => /^\d{9}$/.test(siren) && luhn(siren);

/** A SIRET (14 digits) with a valid key: Luhn, or for La Poste's establishments the sum of the digits divisible by 5. */
export function isValidSiret(siret: string): boolean {
  if (!/^\d{14}$/.test(siret)) return false;
  if (siret.startsWith(LA_POSTE)) return luhn(siret) || [...siret].reduce((s, d) => s + Number(d), 0) % 5 === 0;
  return luhn(siret);
}

/** The French VAT number of a SIREN: FR + key + SIREN, key = (12 + 3 × (SIREN mod 97)) mod 97 on two digits. */
export function frenchVatNumber(siren: string): string {
  const key = (12 + 3 * (Number(siren) % 97)) % 97;
  return `FR${String(key).padStart(2, '0')}${siren}`;
}

/**
 * Whether an intra-EU VAT number is plausible: a French one must carry its SIREN's key (and a valid SIREN); another
 * country's is only checked for its shape (two letters, then 2 to 13 letters or digits), its rules are its own.
 */
export function isPlausibleVatNumber(vat: string): boolean {
  const v = vat.replace(/[\s.-]/g, '').toUpperCase();
  if (!/^[A-Z]{2}[0-9A-Z]{2,13}$/.test(v)) return false;
  if (!v.startsWith('FR')) return true;
  const m = /^FR(\d{2})(\d{9})$/.exec(v);
  // FR numbers with letters in the key (an older scheme) cannot be checked here: the shape is enough.
  if (!m) return /^FR[0-9A-HJ-NP-Z]{2}\d{9}$/.test(v);
  return isValidSiren(m[2]!) && frenchVatNumber(m[2]!) === v;
}

/** An IBAN with a valid country format and check digits (spaces allowed). */
export const isValidIban = (iban: string): boolean => isValidIBAN(electronicFormatIBAN(iban) ?? '');

/** "FR76 3000 6000 0112 3456 7890 189": an IBAN in groups of four, as people read and type it. */
export const friendlyIban = (iban: string): string => friendlyFormatIBAN(electronicFormatIBAN(iban) ?? iban) ?? iban;

/** A BIC (8 or 11 characters, a known country). */
export const isValidBic = (bic: string): boolean => isValidBIC(bic.replace(/\s/g, '').toUpperCase());

/** The French words for what is wrong with each identifier given, by field; empty when all are right. */
export function identifierProblems(values: {
  siren?: string | null;
  siret?: string | null;
  vat_intra?: string | null;
  vat_number?: string | null;
  iban?: string | null;
  bic?: string | null;
}): Record<string, string> {
  const problems: Record<string, string> = {};
  if (values.siren && !isValidSiren(values.siren)) problems.siren = 'Ce SIREN n’existe pas : sa clé de contrôle est fausse (vérifiez les 9 chiffres).';
  if (values.siret && !isValidSiret(values.siret)) problems.siret = 'Ce SIRET n’existe pas : sa clé de contrôle est fausse (vérifiez les 14 chiffres).';
  if (values.siren && values.siret && isValidSiren(values.siren) && !values.siret.startsWith(values.siren)) {
    problems.siret = 'Ce SIRET n’est pas celui d’un établissement de ce SIREN (ses 9 premiers chiffres doivent être le SIREN).';
  }
  for (const field of ['vat_intra', 'vat_number'] as const) {
    const vat = values[field];
    if (vat && !isPlausibleVatNumber(vat)) {
      problems[field] = vat.toUpperCase().startsWith('FR')
        ? 'Ce numéro de TVA français ne correspond à aucun SIREN (FR, la clé à 2 chiffres, puis le SIREN).'
        : 'Ce numéro de TVA intracommunautaire n’a pas la forme attendue (code pays, puis 2 à 13 caractères).';
    }
  }
  if (values.iban && !isValidIban(values.iban)) problems.iban = 'Cet IBAN n’est pas valide : vérifiez-le, sa clé de contrôle ne correspond pas.';
  if (values.bic && !isValidBic(values.bic)) problems.bic = 'Ce BIC n’est pas valide (8 ou 11 caractères).';
  return problems;
}
