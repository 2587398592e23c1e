import type { z } from 'zod';
import { formatDay, formatMoney } from '@/lib/platform/format';
import { agree, ofName, theDocument } from '@/lib/platform/i18n';
import { Action, Facts, Layout, P, SignOff } from './layout';
import { DOCUMENT_NOUN, documentTitle, type Language } from './nouns';
import type { PaymentReceiptData, PaymentReceivedData } from './payment-data';
import type { RenderedTemplate } from './types';

type Receipt = z.output<typeof PaymentReceiptData>;
type Received = z.output<typeof PaymentReceivedData>;

/*
 * Both document types are feminine nouns (« facture », « facture d’acompte »): « votre » agrees with either. The French
 * phrases about the document and the client are lib/platform/i18n's (« la facture », « payée », « d’Atelier Lumière »).
 */

const METHOD: Record<Language, Record<Receipt['method'], string>> = {
  fr: { card: 'carte bancaire', sepa_debit: 'prélèvement SEPA' },
  en: { card: 'card', sepa_debit: 'SEPA Direct Debit' },
};

const RECEIPT = {
  fr: {
    subject: (d: Receipt) => `Paiement reçu – ${documentTitle(d.document_type, 'fr')} ${d.document_number} – ${d.seller_name}`,
    heading: 'Paiement reçu',
    hello: (name?: string | null) => (name ? `Bonjour ${name},` : 'Bonjour,'),
    intro: (d: Receipt, amount: string) =>
      `Nous avons bien reçu votre paiement de ${amount} par ${METHOD.fr[d.method]} pour ${theDocument(d.document_type)} ${d.document_number}. Merci !`,
    rest: (d: Receipt, rest: string) => (d.remaining_cents > 0 ? `Il reste ${rest} à régler sur cette facture.` : 'Cette facture est désormais entièrement réglée.'),
    facts: { number: 'Facture', amount: 'Montant payé', method: 'Moyen de paiement', date: 'Date', rest: 'Reste à payer' },
    note: 'Ce message est un reçu de paiement ; il ne remplace pas la facture.',
    open: 'Voir la facture',
    closing: 'Cordialement,',
  },
  en: {
    subject: (d: Receipt) => `Payment received – ${documentTitle(d.document_type, 'en')} ${d.document_number} – ${d.seller_name}`,
    heading: 'Payment received',
    hello: (name?: string | null) => (name ? `Hello ${name},` : 'Hello,'),
    intro: (d: Receipt, amount: string) => `We have received your payment of ${amount} by ${METHOD.en[d.method]} for ${DOCUMENT_NOUN.en[d.document_type]} ${d.document_number}. Thank you!`,
    rest: (d: Receipt, rest: string) => (d.remaining_cents > 0 ? `${rest} remains to be paid on this invoice.` : 'This invoice is now paid in full.'),
    facts: { number: 'Invoice', amount: 'Amount paid', method: 'Payment method', date: 'Date', rest: 'Balance due' },
    note: 'This message is a payment receipt; it does not replace the invoice.',
    open: 'View the invoice',
    closing: 'Kind regards,',
  },
} as const;

/** The payer's receipt of an online payment, in their language. */
export function paymentReceipt(d: Receipt, lang: Language): RenderedTemplate {
  const c = RECEIPT[lang];
  const amount = formatMoney(d.amount_cents, lang);
  const rest = formatMoney(d.remaining_cents, lang);
  const intro = c.intro(d, amount);
  return {
    subject: c.subject(d),
    element: (
      <Layout lang={lang} seller={d.seller_name} preview={intro} heading={c.heading}>
        <P>{c.hello(d.recipient_name)}</P>
        <P>{intro}</P>
        <Facts
          rows={[
            [c.facts.number, d.document_number],
            [c.facts.amount, amount],
            [c.facts.method, METHOD[lang][d.method]],
            [c.facts.date, formatDay(d.paid_at, lang, 'long')],
            [c.facts.rest, rest],
          ]}
        />
        <P>{c.rest(d, rest)}</P>
        <Action href={d.pay_url} label={c.open} />
        <P>{c.note}</P>
        <SignOff closing={c.closing} seller={d.seller_name} />
      </Layout>
    ),
  };
}

/** To the org's owners and admins (French, as the back-office): an online payment arrived, the invoice paid or not yet. */
export function paymentReceived(d: Received, _lang: Language): RenderedTemplate {
  const amount = formatMoney(d.amount_cents, 'fr');
  const rest = formatMoney(d.remaining_cents, 'fr');
  const title = `${documentTitle(d.document_type, 'fr')} ${d.document_number}`;
  const paid = d.remaining_cents === 0;
  const from = d.client_name ? ` ${ofName(d.client_name)}` : '';
  const paidTitle = `${title} ${agree(d.document_type, 'payé')}`;
  const body = `Paiement de ${amount} reçu${from} par ${METHOD.fr[d.method]} le ${formatDay(d.paid_at, 'fr', 'long')}. ${
    paid ? 'La facture est payée : ses relances sont arrêtées.' : `Il reste ${rest} à encaisser.`
  }`;
  return {
    subject: paid ? `${paidTitle} – paiement de ${amount} reçu` : `Paiement reçu – ${title} – ${amount}`,
    element: (
      <Layout
        lang="fr"
        seller={d.seller_name}
        preview={body}
        heading={paid ? paidTitle : `Paiement reçu pour ${theDocument(d.document_type)} ${d.document_number}`}
        footer="Ce message vous est envoyé automatiquement par Paraphe, en tant que propriétaire ou administrateur de l’organisation, à chaque paiement en ligne."
      >
        <P>{body}</P>
        <Facts
          rows={[
            ['Facture', d.document_number],
            ...(d.client_name ? [['Client', d.client_name] as [string, string]] : []),
            ['Montant reçu', amount],
            ['Moyen de paiement', METHOD.fr[d.method]],
            ['Reste à encaisser', rest],
          ]}
        />
        <Action href={d.document_url} label="Voir la facture" />
      </Layout>
    ),
  };
}
