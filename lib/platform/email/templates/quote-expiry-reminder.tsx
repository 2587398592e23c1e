import type { z } from 'zod';
import { formatDay, formatMoney } from '@/lib/platform/format';
import type { QuoteExpiryReminderData } from './data';
import type { Language } from './nouns';
import { Facts, Layout, Message, opensWithGreeting, P, SignOff } from './layout';
import type { RenderedTemplate } from './types';

type Data = z.output<typeof QuoteExpiryReminderData>;

const COPY = {
  fr: {
    subject: (d: Data, until: string) => `Votre devis ${d.document_number} expire le ${until} – ${d.seller_name}`,
    heading: 'Votre devis arrive à expiration',
    hello: (name?: string | null) => (name ? `Bonjour ${name},` : 'Bonjour,'),
    body: (d: Data, amount: string, until: string) => `Notre devis ${d.document_number}, d’un montant de ${amount} TTC, est valable jusqu’au ${until}.`,
    ask: 'Pour en bénéficier, il vous suffit de nous le retourner signé ou de nous confirmer votre accord avant cette date. Passé ce délai, ses conditions ne sont plus garanties.',
    facts: { number: 'Numéro', amount: 'Montant TTC', until: 'Valable jusqu’au' },
    questions: 'Nous restons à votre disposition pour en discuter.',
    closing: 'Bien cordialement,',
  },
  en: {
    subject: (d: Data, until: string) => `Your quote ${d.document_number} expires on ${until} – ${d.seller_name}`,
    heading: 'Your quote is about to expire',
    hello: (name?: string | null) => (name ? `Hello ${name},` : 'Hello,'),
    body: (d: Data, amount: string, until: string) => `Our quote ${d.document_number} for ${amount} (incl. VAT) is valid until ${until}.`,
    ask: 'To take it up, simply return it signed or confirm your agreement before that date. After it, its terms are no longer guaranteed.',
    facts: { number: 'Number', amount: 'Amount incl. VAT', until: 'Valid until' },
    questions: 'We would be happy to discuss it with you.',
    closing: 'Best regards,',
  },
} as const;

export function quoteExpiryReminder(d: Data, lang: Language): RenderedTemplate {
  const c = COPY[lang];
  const amount = formatMoney(d.amount_cents, lang);
  const until = formatDay(d.validity_date, lang, 'long');
  const body = c.body(d, amount, until);
  return {
    subject: c.subject(d, until),
    element: (
      <Layout lang={lang} seller={d.seller_name} preview={body} heading={c.heading}>
        {/* A message that greets the reader itself takes the greeting's place (and is not repeated below). */}
        {opensWithGreeting(d.message) ? <Message text={d.message} /> : <P>{c.hello(d.recipient_name)}</P>}
        <P>{body}</P>
        <Facts
          rows={[
            [c.facts.number, d.document_number],
            [c.facts.amount, amount],
            [c.facts.until, until],
          ]}
        />
        <P>{c.ask}</P>
        {!opensWithGreeting(d.message) && <Message text={d.message} />}
        <P>{c.questions}</P>
        <SignOff closing={c.closing} seller={d.seller_name} />
      </Layout>
    ),
  };
}
