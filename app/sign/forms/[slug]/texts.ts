/**
 * Everything the public signature form says, in French and English (a public page: the visitor chooses, French by
 * default or the browser's language). Error keys are the API's codes and fields, carried in the page's query.
 */
export const FORM_TEXTS = {
  fr: {
    htmlLang: 'fr',
    switchTo: { lang: 'en', label: 'English' },
    languageNav: 'Langue',
    pageTitle: 'Formulaire de signature',
    proposedBy: (org: string) => `Proposé par ${org}`,
    document: (pages: number) => `Le document (PDF, ${pages} page${pages > 1 ? 's' : ''})`,
    open: 'Ouvrir le document',
    intro: 'Indiquez votre nom et votre adresse e-mail : nous vous envoyons un code pour la confirmer, puis vous signez le document en ligne.',
    fullName: 'Nom et prénom',
    email: 'Adresse e-mail',
    phone: 'Téléphone mobile (format international, ex. +33612345678)',
    phoneHint: 'Un code vous sera envoyé par SMS au moment de signer.',
    honeypot: 'Ne remplissez pas ce champ',
    submit: 'Recevoir mon code',
    codeHeading: 'Confirmez votre adresse e-mail',
    codeSent: (to: string) => `Nous avons envoyé un code à 6 chiffres à ${to}. Il est valable 10 minutes.`,
    code: 'Code reçu par e-mail',
    verify: 'Confirmer et signer',
    restart: 'Recommencer avec une autre adresse',
    typo: (domain: string) => `Vérifiez votre adresse : vouliez-vous écrire « …@${domain} » ? Si oui, le code n’arrivera pas :`,
    inactiveTitle: 'Ce formulaire est fermé',
    inactiveText: (org: string) => `${org} n’accepte plus de signatures par ce formulaire. Contactez-les pour obtenir le document.`,
    notFoundTitle: 'Formulaire introuvable',
    notFoundText: 'Ce lien ne correspond à aucun formulaire de signature. Vérifiez l’adresse reçue.',
    errors: {
      full_name: 'Indiquez votre nom.',
      email: 'Indiquez une adresse e-mail valide.',
      phone: 'Indiquez un numéro de mobile au format international (+33612345678).',
      invalid_code: 'Ce code n’est pas le bon, ou il a expiré.',
      signer_locked: 'Trop de codes erronés : recommencez depuis le formulaire.',
      rate_limited: 'Trop de tentatives : patientez quelques minutes avant de réessayer.',
      form_inactive: 'Ce formulaire n’accepte plus de signatures.',
      link_expired: 'Cette signature n’est plus ouverte.',
      unknown: 'Une erreur est survenue. Réessayez dans un instant.',
    } as Record<string, string>,
  },
  en: {
    htmlLang: 'en',
    switchTo: { lang: 'fr', label: 'Français' },
    languageNav: 'Language',
    pageTitle: 'Signature form',
    proposedBy: (org: string) => `Offered by ${org}`,
    document: (pages: number) => `The document (PDF, ${pages} page${pages > 1 ? 's' : ''})`,
    open: 'Open the document',
    intro: 'Give your name and e-mail address: we send you a code to confirm it, then you sign the document online.',
    fullName: 'Full name',
    email: 'E-mail address',
    phone: 'Mobile phone (international format, e.g. +447911123456)',
    phoneHint: 'A code will be sent to you by SMS when you sign.',
    honeypot: 'Leave this field empty',
    submit: 'Get my code',
    codeHeading: 'Confirm your e-mail address',
    codeSent: (to: string) => `We sent a 6-digit code to ${to}. It is valid for 10 minutes.`,
    code: 'Code received by e-mail',
    verify: 'Confirm and sign',
    restart: 'Start again with another address',
    typo: (domain: string) => `Check your address: did you mean “…@${domain}”? If so, the code will not arrive:`,
    inactiveTitle: 'This form is closed',
    inactiveText: (org: string) => `${org} no longer accepts signatures through this form. Contact them to get the document.`,
    notFoundTitle: 'Form not found',
    notFoundText: 'This link matches no signature form. Check the address you were given.',
    errors: {
      full_name: 'Give your name.',
      email: 'Give a valid e-mail address.',
      phone: 'Give a mobile number in international format (+447911123456).',
      invalid_code: 'This code is not the right one, or it expired.',
      signer_locked: 'Too many wrong codes: start again from the form.',
      rate_limited: 'Too many attempts: wait a few minutes before trying again.',
      form_inactive: 'This form no longer accepts signatures.',
      link_expired: 'This signature is no longer open.',
      unknown: 'Something went wrong. Try again in a moment.',
    } as Record<string, string>,
  },
} as const;

export type FormLang = keyof typeof FORM_TEXTS;

/** The message for an error carried in the query (`?error=validation_error&field=email`). */
export function errorText(lang: FormLang, code: string | undefined, field: string | undefined): string | null {
  if (!code) return null;
  const errors = FORM_TEXTS[lang].errors;
  return (code === 'validation_error' && field && errors[field]) || errors[code] || errors.unknown!;
}
