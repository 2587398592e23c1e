import type { Language } from '@/lib/platform/format';

/** What the payer reads on /pay/mandate after the provider's mandate page, in French (default) and English. */
export type MandatePageStatus = 'success' | 'cancel' | 'unknown';

interface MandateTexts {
  htmlLang: Language;
  switchTo: { href: Language; label: string };
  languageNav: string;
  pages: Record<MandatePageStatus, { title: string; text: string[] }>;
}

const fr: MandateTexts = {
  htmlLang: 'fr',
  switchTo: { href: 'en', label: 'English' },
  languageNav: 'Langue',
  pages: {
    success: {
      title: 'Mandat de prélèvement SEPA en cours d’enregistrement',
      text: [
        'Merci ! Vous avez autorisé les prélèvements SEPA sur votre compte. Le mandat est en cours d’enregistrement auprès de notre prestataire de paiement.',
        'Vous serez informé avant chaque prélèvement, et vous pouvez révoquer ce mandat à tout moment auprès de l’entreprise ou de votre banque. Vous pouvez fermer cette page.',
      ],
    },
    cancel: {
      title: 'Le mandat n’a pas été mis en place',
      text: [
        'Aucun mandat n’a été enregistré et rien ne sera prélevé sur votre compte.',
        'S’il s’agit d’une erreur, rouvrez le lien reçu ou demandez-en un nouveau à l’entreprise qui vous l’a envoyé.',
      ],
    },
    unknown: {
      title: 'Mandat de prélèvement SEPA',
      text: ['Cette page s’affiche au retour de la mise en place d’un mandat de prélèvement SEPA. Pour en autoriser un, ouvrez le lien que l’entreprise vous a envoyé.'],
    },
  },
};

const en: MandateTexts = {
  htmlLang: 'en',
  switchTo: { href: 'fr', label: 'Français' },
  languageNav: 'Language',
  pages: {
    success: {
      title: 'Your SEPA Direct Debit mandate is being recorded',
      text: [
        'Thank you! You authorised SEPA Direct Debits from your account. The mandate is being recorded with our payment provider.',
        'You will be notified before each debit, and you can revoke this mandate at any time with the business or your bank. You may close this page.',
      ],
    },
    cancel: {
      title: 'The mandate was not set up',
      text: ['No mandate was recorded and nothing will be debited from your account.', 'If this was a mistake, open the link you received again or ask the business that sent it for a new one.'],
    },
    unknown: {
      title: 'SEPA Direct Debit mandate',
      text: ['This page is shown on return from setting up a SEPA Direct Debit mandate. To authorise one, open the link the business sent you.'],
    },
  },
};

export const MANDATE_TEXTS: Record<Language, MandateTexts> = { fr, en };

export const mandatePageStatus = (status: string | string[] | undefined): MandatePageStatus => {
  const value = Array.isArray(status) ? status[0] : status;
  return value === 'success' || value === 'cancel' ? value : 'unknown';
};
