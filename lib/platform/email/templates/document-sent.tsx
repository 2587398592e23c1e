import type { z } from 'zod';
import { formatDay, formatMoney } from '@/lib/platform/format';
import type { DocumentSentData } from './data';
import { DOCUMENT_NOUN, documentTitle, type Language } from './nouns';
import { Action, Facts, Layout, Message, opensWithGreeting, P, SignOff } from './layout';
import type { RenderedTemplate } from './types';

type Data = z.output<typeof DocumentSentData>;

const COPY = {
  fr: {
    subject: (d: Data) => `${documentTitle(d.document_type, 'fr')} ${d.document_number} – ${d.seller_name}`,
    heading: (d: Data) => `Votre ${DOCUMENT_NOUN.fr[d.document_type]} ${d.document_number}`,
    hello: (name?: string | null) => (name ? `Bonjour ${name},` : 'Bonjour,'),
    intro: (d: Data, amount: string) => `Veuillez trouver ci-joint notre ${DOCUMENT_NOUN.fr[d.document_type]} ${d.document_number} d’un montant de ${amount} TTC.`,
    terms: (d: Data) => {
      switch (d.document_type) {
        case 'devis':
          return d.validity_date ? `Ce devis est valable jusqu’au ${formatDay(d.validity_date, 'fr', 'long')}. Pour l’accepter, il vous suffit de nous le retourner signé ou de nous confirmer votre accord par retour d’e-mail.` : `Pour l’accepter, il vous suffit de nous le retourner signé ou de nous confirmer votre accord par retour d’e-mail.`;
        case 'facture':
        case 'acompte':
          return d.due_date ? `Elle est payable au plus tard le ${formatDay(d.due_date, 'fr', 'long')}.` : 'Elle est payable à réception.';
        case 'avoir':
          return `${d.credited_document_number ? `Il se rapporte à la facture ${d.credited_document_number}. ` : ''}Son montant sera déduit de vos prochains règlements ou vous sera remboursé.`;
      }
    },
    facts: { number: 'Numéro', amount: 'Montant TTC', due: 'Échéance', validity: 'Valable jusqu’au', credited: 'Facture concernée' },
    pay: 'Payer en ligne',
    questions: 'Nous restons à votre disposition pour toute question.',
    closing: 'Cordialement,',
  },
  en: {
    subject: (d: Data) => `${documentTitle(d.document_type, 'en')} ${d.document_number} from ${d.seller_name}`,
    heading: (d: Data) => `Your ${DOCUMENT_NOUN.en[d.document_type]} ${d.document_number}`,
    hello: (name?: string | null) => (name ? `Hello ${name},` : 'Hello,'),
    intro: (d: Data, amount: string) => `Please find attached our ${DOCUMENT_NOUN.en[d.document_type]} ${d.document_number} for ${amount} (incl. VAT).`,
    terms: (d: Data) => {
      switch (d.document_type) {
        case 'devis':
          return d.validity_date ? `This quote is valid until ${formatDay(d.validity_date, 'en', 'long')}. To accept it, simply return it signed or confirm your agreement by replying to this e-mail.` : 'To accept it, simply return it signed or confirm your agreement by replying to this e-mail.';
        case 'facture':
        case 'acompte':
          return d.due_date ? `Payment is due by ${formatDay(d.due_date, 'en', 'long')}.` : 'Payment is due on receipt.';
        case 'avoir':
          return `${d.credited_document_number ? `It relates to invoice ${d.credited_document_number}. ` : ''}Its amount will be deducted from your next payments or refunded to you.`;
      }
    },
    facts: { number: 'Number', amount: 'Amount incl. VAT', due: 'Due date', validity: 'Valid until', credited: 'Invoice credited' },
    pay: 'Pay online',
    questions: 'Do not hesitate to contact us with any question.',
    closing: 'Kind regards,',
  },
} as const;

export function documentSent(d: Data, lang: Language): RenderedTemplate {
  const c = COPY[lang];
  const amount = formatMoney(d.amount_cents, lang);
  const facts: Array<[string, string]> = [
    [c.facts.number, d.document_number],
    [c.facts.amount, amount],
  ];
  if ((d.document_type === 'facture' || d.document_type === 'acompte') && d.due_date) facts.push([c.facts.due, formatDay(d.due_date, lang, 'long')]);
  if (d.document_type === 'devis' && d.validity_date) facts.push([c.facts.validity, formatDay(d.validity_date, lang, 'long')]);
  if (d.document_type === 'avoir' && d.credited_document_number) facts.push([c.facts.credited, d.credited_document_number]);
  const intro = c.intro(d, amount);
  return {
    subject: c.subject(d),
    element: (
      <Layout lang={lang} seller={d.seller_name} preview={intro} heading={c.heading(d)}>
        {/* A message that greets the reader itself takes the greeting's place (and is not repeated below). */}
        {opensWithGreeting(d.message) ? <Message text={d.message} /> : <P>{c.hello(d.recipient_name)}</P>}
        <P>{intro}</P>
        <Facts rows={facts} />
        <P>{c.terms(d)}</P>
        {!opensWithGreeting(d.message) && <Message text={d.message} />}
        <Action href={d.pay_url} label={c.pay} />
        <P>{c.questions}</P>
        <SignOff closing={c.closing} seller={d.seller_name} />
      </Layout>
    ),
  };
}
