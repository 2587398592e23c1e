/*
 * Online payment in the back-office's words: a capability's state, what the provider still needs (its requirement
 * names, e.g. `individual.verification.document`), an online payment's method and status.
 */

export const CAPABILITY_LABELS: Readonly<Record<string, string>> = {
  active: 'actif',
  pending: 'en attente',
  inactive: 'inactif',
  unrequested: 'non demandé',
};

// By the requirement's first segments, the most precise first; "person_…" names one person of the company.
const REQUIREMENT_LABELS: ReadonlyArray<[RegExp, string]> = [
  [/^external_account/, 'le compte bancaire qui reçoit les versements'],
  [/^tos_acceptance/, 'l’acceptation des conditions d’utilisation de Stripe'],
  [/^business_profile\.url/, 'le site web de l’entreprise'],
  [/^business_profile\.mcc/, 'le secteur d’activité'],
  [/^business_profile\.(product_description|support_)/, 'la description de l’activité et le contact du service client'],
  [/^business_profile/, 'le profil de l’entreprise'],
  [/^business_type/, 'la forme de l’entreprise (société, entrepreneur individuel…)'],
  [/^company\.tax_id/, 'le numéro d’identification de l’entreprise (SIREN)'],
  [/^company\.address/, 'l’adresse de l’entreprise'],
  [/^company\.(owners|directors|executives)_provided/, 'la liste des dirigeants et actionnaires'],
  [/^company\.verification/, 'un justificatif de l’entreprise (extrait Kbis)'],
  [/^company/, 'les informations sur l’entreprise'],
  [/^(representative|person_[^.]+)\.verification/, 'une pièce d’identité d’une personne de l’entreprise'],
  [/^(representative|person_[^.]+)/, 'l’identité d’une personne de l’entreprise (représentant, dirigeant)'],
  [/^(owners|directors|executives)/, 'l’identité des dirigeants et actionnaires'],
  [/^individual\.verification/, 'une pièce d’identité de l’entrepreneur'],
  [/^individual/, 'l’identité de l’entrepreneur'],
  [/^settings\.payments\.statement_descriptor/, 'le libellé qui apparaît sur les relevés des clients'],
  [/^settings/, 'les réglages du compte'],
];

/** What the provider still needs, in plain French, each need once (several fields often make one need). */
export function requirementsInFrench(names: readonly string[]): string[] {
  const out = new Set<string>();
  for (const name of names) out.add(REQUIREMENT_LABELS.find(([pattern]) => pattern.test(name))?.[1] ?? `une autre information demandée (${name})`);
  return [...out];
}

export const ONLINE_METHOD_LABELS: Readonly<Record<string, string>> = {
  card: 'Carte',
  sepa_debit: 'Prélèvement SEPA',
};

export const ONLINE_STATUS_LABELS: Readonly<Record<string, string>> = {
  open: 'en attente',
  processing: 'en cours de traitement',
  succeeded: 'réussi',
  failed: 'échoué',
  expired: 'expiré',
  canceled: 'abandonné',
};

export const ONLINE_STATUS_CHIPS: Readonly<Record<string, string>> = {
  open: 'chip-grey',
  processing: 'chip-amber',
  succeeded: 'chip-green',
  failed: 'chip-red',
  expired: 'chip-grey',
  canceled: 'chip-grey',
};

export const DISPUTE_LABELS: Readonly<Record<string, string>> = {
  warning_needs_response: 'avertissement : réponse attendue',
  warning_under_review: 'avertissement en cours d’examen',
  warning_closed: 'avertissement clos',
  needs_response: 'contestation : réponse attendue',
  under_review: 'contestation en cours d’examen',
  won: 'contestation gagnée',
  lost: 'contestation perdue',
  prevented: 'contestation évitée',
};
